// The xtensor oracle on int8, uint8, int16 and int32 (docs/notes/xtensor-narrow-integers.md): the element types are
// the C++ ones, so xtensor's results follow C++'s integral promotion and conversions. The expected values below are
// C++'s rules worked out by hand (int8 127 + 1 is the int 128), not answers of the code under test.
#include <gtest/gtest.h>

#include "harness/case.h"
#include "oracle_test_util.h"
#include "oracles/xtensor_oracle.h"

namespace bc {
namespace {

Outcome xtensor(const Case& c) { return make_xtensor_oracle()->run(c); }

// A value case of `op` on operands of the given dtypes and integer values, each of shape [n].
Case ints_case(const std::string& op, std::vector<DType> dtypes, std::vector<std::vector<int64_t>> data) {
  std::vector<Shape> shapes;
  ValueSpec values;
  for (const auto& d : data) {
    shapes.push_back({static_cast<int64_t>(d.size())});
    values.data.emplace_back(d);
  }
  Case c = testing::make_case(op, std::move(shapes));
  c.dtypes = std::move(dtypes);
  c.values = std::move(values);
  return c;
}

void expect_ints(const Outcome& o, const std::string& dtype, const std::vector<int64_t>& values) {
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.dtype, dtype);
  EXPECT_EQ(o.values, Values(values));
}

}  // namespace

// int8, uint8 and int16 operands are promoted to int before C++ adds them, so nothing wraps at 8 or 16 bits; int32
// is int itself and wraps (GCC's two's complement, as LibTorch's int32 does).
TEST(XtensorNarrowIntegers, ArithmeticFollowsCppIntegralPromotion) {
  expect_ints(xtensor(ints_case("add", {DType::int8, DType::int8}, {{127, -128}, {1, -1}})), "int32", {128, -129});
  expect_ints(xtensor(ints_case("sub", {DType::uint8, DType::uint8}, {{0}, {1}})), "int32", {-1});
  expect_ints(xtensor(ints_case("mul", {DType::int16, DType::int16}, {{32767}, {2}})), "int32", {65534});
  expect_ints(xtensor(ints_case("add", {DType::int32, DType::int32}, {{2147483647}, {1}})), "int32", {-2147483648LL});
  // Comparisons give bool, as in LibTorch.
  expect_ints(xtensor(ints_case("lt", {DType::uint8, DType::uint8}, {{1, 2}, {2, 2}})), "bool", {1, 0});
}

TEST(XtensorNarrowIntegers, UnaryOpsPromoteToo) {
  expect_ints(xtensor(ints_case("neg", {DType::uint8}, {{1}})), "int32", {-1});
  expect_ints(xtensor(ints_case("abs", {DType::int8}, {{-128}})), "int32", {128});
}

// xt::sum's result type is that of T() + T(): an int for int8, so a sum of int8 neither wraps nor widens to int64.
TEST(XtensorNarrowIntegers, ReductionsTakeTheReducersType) {
  expect_ints(xtensor(ints_case("sum", {DType::int8}, {{100, 100}})), "int32", {200});
  Case c = ints_case("sum", {DType::int32}, {{1, 2}});
  c.dtype_arg = DType::int16;  // converted first, then summed in int16 + int16 = int
  expect_ints(xtensor(c), "int32", {3});
}

TEST(XtensorNarrowIntegers, WhereAndFillKeepTheElementType) {
  expect_ints(xtensor(ints_case("where", {DType::bool_, DType::int8, DType::int8}, {{1, 0}, {5, 6}, {-7, -8}})),
              "int8", {5, -8});
  Case fill = ints_case("fill_", {DType::uint8}, {{9}});
  fill.scalars["value"] = Scalar{256, true};  // C++ converts modulo 2^8
  expect_ints(xtensor(fill), "uint8", {0});
  fill.scalars["value"] = Scalar{-1.0, false};  // a negative double into uint8: undefined in C++, not run
  EXPECT_EQ(xtensor(fill).status, Status::unsupported);
}

// Mixed pairs run as C++ computes them (xtensor_conversions.h): int8 with uint8 is added in int, int8 with float32 in
// float, pow of two integers in double, where's a and b meet in their common type, and an in-place op converts the
// result back to self's type. out= with a narrow integer operand and the variants stay the wide dtypes'.
TEST(XtensorNarrowIntegers, MixedPairsRunInTheTypeCppConvertsThemTo) {
  expect_ints(xtensor(ints_case("add", {DType::int8, DType::uint8}, {{-128, 1}, {255, 2}})), "int32", {127, 3});
  expect_ints(xtensor(ints_case("maximum", {DType::int8, DType::uint8}, {{-1}, {255}})), "int32", {255});
  expect_ints(xtensor(ints_case("lt", {DType::int16, DType::uint8}, {{-1, 300}, {0, 255}})), "bool", {1, 0});
  expect_ints(xtensor(ints_case("where", {DType::int16, DType::int8, DType::uint8}, {{0, 3}, {1, 2}, {200, 201}})),
              "int32", {200, 2});
  const Outcome scaled = xtensor(ints_case("mul", {DType::int8, DType::float32}, {{100}, {3}}));
  ASSERT_EQ(scaled.status, Status::ok) << scaled.detail;
  EXPECT_EQ(scaled.dtype, "float32");
  EXPECT_EQ(scaled.values, Values(std::vector<double>{300.0}));
  const Outcome power = xtensor(ints_case("pow", {DType::int8, DType::uint8}, {{2}, {10}}));
  ASSERT_EQ(power.status, Status::ok) << power.detail;
  EXPECT_EQ(power.dtype, "float64");
  EXPECT_EQ(power.values, Values(std::vector<double>{1024.0}));
  // self += 1 * other in int64, written back into int8: 100 + 100 wraps to -56 (GCC's modulo conversion).
  expect_ints(xtensor(ints_case("add_", {DType::int8, DType::uint8}, {{100}, {100}})), "int8", {-56});
  Case out = ints_case("add", {DType::int8, DType::int8}, {{1}, {2}});
  out.out = OutSpec{{1}, DType::int8};
  EXPECT_EQ(xtensor(out).status, Status::unsupported);
  // The variants are compiled for the wide dtypes only.
  EXPECT_TRUE(unsupported_dtype(ints_case("add", {DType::int32, DType::int32}, {{1}, {2}})).has_value());
  EXPECT_FALSE(unsupported_dtype(ints_case("add", {DType::int64, DType::int64}, {{1}, {2}})).has_value());
}

}  // namespace bc
