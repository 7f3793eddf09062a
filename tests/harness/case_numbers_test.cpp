// Number operands in the case format (harness/case.h, harness/case_numbers.cpp): how they are written and read,
// exactly, and where a reader refuses them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "harness/case.h"
#include "harness/operands.h"

namespace bc {
namespace {

using nlohmann::json;

Case parse(const char* text) { return case_from_json(json::parse(text)); }

std::string parse_error(const char* text) {
  try {
    parse(text);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "<no CaseError thrown>";
}

TEST(CaseNumbers, AnOperandWrittenAsANumberKeepsItsKindAndValue) {
  const Case c = parse(R"({"op": "add", "shapes": [[2, 3], {"number": 2.5}], "dtypes": ["int8", "float64"]})");
  ASSERT_NE(number_of(c, 1), nullptr);
  EXPECT_EQ(number_of(c, 0), nullptr);
  EXPECT_EQ(*number_of(c, 1), Number::of_float(2.5));
  EXPECT_EQ(c.shapes[1], Shape{});
  EXPECT_EQ(dtype_of(c, 1), DType::float64);
  EXPECT_EQ(layout_of(c, 1), Layout::contiguous);
  EXPECT_TRUE(has_numbers(c));
  EXPECT_EQ(describe(c), "add([2, 3], 2.5)");
  EXPECT_EQ(to_json(c)["shapes"].dump(), R"([[2,3],{"number":2.5}])");
  // A number's dtype is its kind's; "dtypes" may leave it to the reader.
  const Case i = parse(R"({"op": "mul_", "shapes": [[3], {"number": 3}], "dtypes": ["int8", "int64"]})");
  EXPECT_EQ(*number_of(i, 1), Number::of_int(3));
  const Case b = parse(R"({"op": "mul", "shapes": [[3], {"number": true}]})");
  EXPECT_EQ(*number_of(b, 1), Number::of_bool(true));
  EXPECT_EQ(dtype_of(b, 1), DType::bool_);
  EXPECT_EQ(dtype_of(b, 0), DType::float32);
  EXPECT_EQ(describe(b), "mul([3], True)");
  // 2.0 is a Python float, 2 an int: LibTorch and NumPy tell them apart.
  EXPECT_EQ(*number_of(parse(R"({"op": "add", "shapes": [[1], {"number": 2.0}]})"), 1), Number::of_float(2.0));
  EXPECT_EQ(to_json(parse(R"({"op": "add", "shapes": [[1], {"number": 2.0}]})"))["shapes"][1].dump(), R"({"number":2.0})");
}

TEST(CaseNumbers, IntsAreExactOverInt64AndNonFiniteFloatsAndNegativeZeroRoundTrip) {
  for (const char* text : {R"({"op": "add", "shapes": [[1], {"number": 9223372036854775807}], "dtypes": ["int64", "int64"]})",
                           R"({"op": "add", "shapes": [[1], {"number": -9223372036854775808}]})",
                           R"({"op": "add", "shapes": [[1], {"number": 9007199254740993}]})",
                           R"({"op": "add", "shapes": [[1], {"number": "nan"}]})",
                           R"({"op": "add", "shapes": [[1], {"number": "-inf"}]})",
                           R"({"op": "add", "shapes": [[1], {"number": -0.0}]})",
                           R"({"op": "where", "shapes": [[1], {"number": 1e300}, {"number": false}]})"}) {
    const Case c = parse(text);
    const Case again = case_from_json(json::parse(to_json(c).dump()));
    EXPECT_TRUE(same_case(c, again)) << text << " -> " << to_json(c).dump();
  }
  EXPECT_EQ(number_of(parse(R"({"op": "add", "shapes": [[1], {"number": 9007199254740993}]})"), 1)->i,
            9007199254740993LL);
  EXPECT_EQ(number_of(parse(R"({"op": "add", "shapes": [[1], {"number": -9223372036854775808}]})"), 1)->i,
            std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(std::signbit(number_of(parse(R"({"op": "add", "shapes": [[1], {"number": -0.0}]})"), 1)->f));
  EXPECT_NE(Number::of_float(-0.0), Number::of_float(0.0));
  EXPECT_EQ(Number::of_float(std::nan("")), Number::of_float(std::nan("")));
}

TEST(CaseNumbers, TheOperandsPlanHoldsTheNumberExactly) {
  const Case c = parse(R"({"op": "add", "shapes": [[2], {"number": 9007199254740993}], "values": {"seed": 1}})");
  const std::vector<OperandPlan> plans = plan_operands(c);
  ASSERT_TRUE(plans[1].number.has_value());
  EXPECT_EQ(plans[1].dtype, DType::int64);
  EXPECT_EQ(plans[1].base_values, Values(std::vector<int64_t>{9007199254740993LL}));
  EXPECT_FALSE(plans[0].number.has_value());
}

TEST(CaseNumbersErrors, ANumberStandsOnlyWhereTheOpTakesOneAndHasNoTensorFields) {
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [{"number": 2}, [3]]})").find("\"shapes[0]\" is a number"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "matmul", "shapes": [[3], {"number": 2}]})").find("second operand"), std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "where", "shapes": [{"number": true}, [1], [1]]})").find("shapes[0]"), std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"number": 2.5}], "dtypes": ["int8", "float32"]})")
                .find("its dtype is its kind's, float64, not float32"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"number": 2.5}], "requires_grad": [true, true]})")
                .find("cannot require grad"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"number": 2}], "layouts": ["contiguous", "strided"]})")
                .find("no layout"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"number": 18446744073709551615}]})").find("beyond int64"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"number": "2.5"}]})").find("must be a shape or a number"),
            std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"value": 2}]})").find("\"shapes[1]\""), std::string::npos);
  EXPECT_NE(parse_error(R"({"op": "add", "shapes": [[1], {"number": 2}], "values": {"data": [[1], [2]]}})")
                .find("must be [] for a number operand"),
            std::string::npos);
  EXPECT_NO_THROW(parse(R"({"op": "add", "shapes": [[1], {"number": 2}], "values": {"data": [[1], []]}})"));
}

}  // namespace
}  // namespace bc
