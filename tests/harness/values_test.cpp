// Values keep every element exactly: int64 beyond 2^53 and its extremes as integers, floats with NaN, infinities
// and -0.0, through JSON and through conversion to a dtype.
#include "harness/values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace bc {
namespace {

using nlohmann::json;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
const Values kBigInts(std::vector<int64_t>{9007199254740993, kMax, kMin, -1, 0});

TEST(Values, IntegersRoundTripThroughJsonTextExactly) {
  const std::string text = to_json(kBigInts).dump();
  EXPECT_EQ(text, "[9007199254740993,9223372036854775807,-9223372036854775808,-1,0]");
  const Values back = values_from_json(json::parse(text), true);
  EXPECT_EQ(back, kBigInts);
  EXPECT_EQ(back.ints()[0], 9007199254740993);
  EXPECT_EQ(values_as_written(json::parse(text)), kBigInts);
}

TEST(Values, FloatsRoundTripWithNanInfinitiesAndNegativeZero) {
  const Values floats{std::nan(""), INFINITY, -INFINITY, -0.0, 0.1, 2.0};
  const std::string text = to_json(floats).dump();
  EXPECT_EQ(text, R"(["nan","inf","-inf",-0.0,0.1,2.0])");
  const Values back = values_from_json(json::parse(text), false);
  EXPECT_EQ(back, floats);
  EXPECT_TRUE(std::signbit(back.floats()[3]));
  EXPECT_EQ(values_as_written(json::parse(text)), floats) << "2.0 is written as a float and stays one";
}

TEST(Values, EqualityIsExactAndKnowsTheKind) {
  EXPECT_NE(Values({0.0}), Values({-0.0}));
  EXPECT_EQ(Values({std::nan("")}), Values({std::nan("")}));
  EXPECT_NE(Values({1.0}), Values(std::vector<int64_t>{1}));
  EXPECT_EQ(Values(), Values(std::vector<int64_t>{})) << "JSON leaves an empty result's values out";
  EXPECT_NE(Values(std::vector<int64_t>{9007199254740993}), Values(std::vector<int64_t>{9007199254740992}));
}

TEST(Values, ReadingByDtypeTakesIntegralFloatsAndRefusesTheRest) {
  EXPECT_EQ(values_from_json(json::parse("[2.0, -9.2233720368547758e18, true]"), true),
            Values(std::vector<int64_t>{2, kMin, 1}));
  EXPECT_THROW(values_from_json(json::parse("[2.5]"), true), std::runtime_error);
  EXPECT_THROW(values_from_json(json::parse("[9.2233720368547758e18]"), true), std::runtime_error);
  EXPECT_THROW(values_from_json(json::parse("[18446744073709551615]"), true), std::runtime_error);
  EXPECT_THROW(values_from_json(json::parse(R"(["nan"])"), true), std::runtime_error);
  EXPECT_EQ(values_from_json(json::parse("[2, 9007199254740993]"), false), Values({2.0, 9007199254740992.0}));
}

TEST(Values, ConvertedAsAStoreIntoTheDtype) {
  EXPECT_EQ(converted(kBigInts, DType::int64), kBigInts);
  EXPECT_EQ(converted(Values({-2.7, 3.9, std::nan(""), 1e300}), DType::int64),
            Values(std::vector<int64_t>{-2, 3, kMin, kMin}));
  EXPECT_EQ(converted(Values({0.5, 0.0, -0.0}), DType::bool_), Values(std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(converted(Values(std::vector<int64_t>{2, 0}), DType::bool_), Values(std::vector<int64_t>{1, 0}));
  EXPECT_EQ(converted(Values({0.1}), DType::float32), Values({static_cast<double>(0.1f)}));
  // 2^53 + 1 rounds once to float32 (to 2^53), as a direct int64 -> float conversion does.
  EXPECT_EQ(converted(Values(std::vector<int64_t>{9007199254740993}), DType::float32),
            Values({static_cast<double>(static_cast<float>(int64_t{9007199254740993}))}));
  EXPECT_EQ(converted(Values(std::vector<int64_t>{kMax}), DType::float64), Values({9223372036854775808.0}));
  // The narrow dtypes as LibTorch's stores (probed on 1.13.1): the low bits; a float through int32; round to
  // nearest-even in the 16-bit float formats.
  EXPECT_EQ(converted(Values(std::vector<int64_t>{128, -129, 255}), DType::int8), Values(std::vector<int64_t>{-128, 127, -1}));
  EXPECT_EQ(converted(Values({-1.5, 300.0}), DType::uint8), Values(std::vector<int64_t>{255, 44}));
  EXPECT_EQ(converted(Values({0.1, 65520.0}), DType::float16), Values({0.0999755859375, INFINITY}));
  EXPECT_EQ(converted(Values(std::vector<int64_t>{257}), DType::bfloat16), Values({256.0}));
}

TEST(Values, DtypeNamesSayWhetherTheyHoldIntegers) {
  EXPECT_TRUE(holds_integers("int64"));
  EXPECT_TRUE(holds_integers("bool"));
  EXPECT_TRUE(holds_integers("int32")) << "a library's dtype this version does not know";
  EXPECT_TRUE(holds_integers("uint8"));
  EXPECT_FALSE(holds_integers("float32"));
  EXPECT_FALSE(holds_integers("bfloat16"));
  EXPECT_FALSE(holds_integers(""));
}

}  // namespace
}  // namespace bc
