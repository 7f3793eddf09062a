// The value facts a declaration can require: large_values (a square overflows the narrowest floating dtype among
// the operands and dtype=) and subnormal_values (a nonzero value below its dtype's smallest normal), computed from
// the values as built, whatever drew them (a value class or given data).
#include "harness/value_conditions.h"

#include <gtest/gtest.h>

#include "harness/case_conditions.h"

namespace bc {
namespace {

Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

TEST(ValueConditions, LargeValuesSquareOverTheNarrowestFloatingDtype) {
  // 2^64 squared is 2^128: past float32's range, not float64's.
  EXPECT_TRUE(large_values(make_case(R"({"op": "add", "shapes": [[1], [1]], "values": {"data": [[1.8446744073709552e19], [1.0]]}})")));
  EXPECT_FALSE(large_values(make_case(
      R"({"op": "add", "shapes": [[1], [1]], "dtypes": ["float64", "float64"], "values": {"data": [[1.8446744073709552e19], [1.0]]}})")));
  // float16 beside float64: 256 squared passes 65504.
  EXPECT_TRUE(large_values(make_case(
      R"({"op": "add", "shapes": [[1], [1]], "dtypes": ["float64", "float16"], "values": {"data": [[300.0], [1.0]]}})")));
  EXPECT_FALSE(large_values(make_case(
      R"({"op": "add", "shapes": [[1], [1]], "dtypes": ["float16", "float16"], "values": {"data": [[255.0], ["inf"]]}})")));
  // A float32 sum with dtype=float16 narrows the range too.
  EXPECT_TRUE(large_values(make_case(
      R"({"op": "sum", "shapes": [[2]], "dtype_arg": "float16", "values": {"data": [[1000.0, 1.0]]}})")));
  // Integers are not floating operands; cases without values have none.
  EXPECT_FALSE(large_values(make_case(
      R"({"op": "add", "shapes": [[1], [1]], "dtypes": ["int64", "int64"], "values": {"data": [[9223372036854775807], [1]]}})")));
  EXPECT_FALSE(large_values(make_case(R"({"op": "add", "shapes": [[1], [1]]})")));
}

TEST(ValueConditions, InfiniteValuesAreAFloatingOperandsInfinity) {
  EXPECT_TRUE(infinite_values(make_case(R"({"op": "remainder", "shapes": [[2], [1]], "values": {"data": [[1.0, 2.0], ["-inf"]]}})")));
  EXPECT_FALSE(infinite_values(make_case(R"({"op": "remainder", "shapes": [[2], [1]], "values": {"data": [[1.0, 2.0], ["nan"]]}})")));
  EXPECT_FALSE(infinite_values(make_case(
      R"({"op": "add", "shapes": [[1], [1]], "dtypes": ["int64", "int64"], "values": {"data": [[9223372036854775807], [1]]}})")));
  EXPECT_FALSE(infinite_values(make_case(R"({"op": "add", "shapes": [[1], [1]]})")));
  EXPECT_TRUE(case_has("infinite_values", make_case(R"({"op": "neg", "shapes": [[1]], "values": {"data": [["inf"]]}})")));
}

TEST(ValueConditions, ZeroDivisorIsAFloatingDivisorHoldingAZero) {
  EXPECT_TRUE(zero_divisor(make_case(R"({"op": "div", "shapes": [[2], []], "values": {"data": [[1.0, 0.0], [-0.0]]}})")));
  EXPECT_TRUE(zero_divisor(make_case(R"({"op": "remainder_", "shapes": [[2], [2]], "values": {"data": [[1.0, 2.0], [3.0, 0.0]]}})")));
  // A zero dividend, an integer divisor, another op: not the fact.
  EXPECT_FALSE(zero_divisor(make_case(R"({"op": "div", "shapes": [[2], []], "values": {"data": [[0.0, 0.0], [2.0]]}})")));
  EXPECT_FALSE(zero_divisor(make_case(
      R"({"op": "div", "shapes": [[1], [1]], "dtypes": ["int64", "int64"], "values": {"data": [[1], [0]]}})")));
  EXPECT_FALSE(zero_divisor(make_case(R"({"op": "mul", "shapes": [[1], [1]], "values": {"data": [[1.0], [0.0]]}})")));
  EXPECT_TRUE(case_has("zero_divisor", make_case(R"({"op": "fmod", "shapes": [[1], [1]], "values": {"data": [[1.0], [0.0]]}})")));
}

TEST(ValueConditions, ValueClassesThatReachTheLimitsHaveThem) {
  EXPECT_TRUE(large_values(make_case(R"({"op": "mul", "shapes": [[4], [4]], "values": {"class": "largest", "seed": 3}})")));
  EXPECT_TRUE(large_values(make_case(R"({"op": "mul", "shapes": [[4], [4]], "values": {"class": "overflow", "seed": 3}})")));
  EXPECT_FALSE(large_values(make_case(R"({"op": "mul", "shapes": [[4], [4]], "values": {"class": "rounding", "seed": 3}})")));
  EXPECT_TRUE(subnormal_values(make_case(R"({"op": "mul", "shapes": [[4], [4]], "values": {"class": "subnormal", "seed": 3}})")));
  EXPECT_FALSE(subnormal_values(make_case(R"({"op": "mul", "shapes": [[4], [4]], "values": {"seed": 3, "special": true}})")));
}

TEST(ValueConditions, SubnormalsAreBelowTheirOwnDtypesSmallestNormal) {
  // 1e-40 is subnormal in float32 (smallest normal 2^-126, 1.18e-38), normal in float64.
  EXPECT_TRUE(subnormal_values(make_case(R"({"op": "neg", "shapes": [[2]], "values": {"data": [[1.0, -1e-40]]}})")));
  EXPECT_FALSE(subnormal_values(make_case(
      R"({"op": "neg", "shapes": [[2]], "dtypes": ["float64"], "values": {"data": [[1.0, -1e-40]]}})")));
  EXPECT_FALSE(subnormal_values(make_case(R"({"op": "neg", "shapes": [[2]], "values": {"data": [[0.0, 1.1754943508222875e-38]]}})")));
  EXPECT_TRUE(case_has("subnormal_values", make_case(R"({"op": "neg", "shapes": [[1]], "values": {"data": [[1e-40]]}})")));
  EXPECT_TRUE(case_has("large_values", make_case(R"({"op": "neg", "shapes": [[1]], "values": {"data": [[1e30]]}})")));
}

TEST(ValueConditions, AFloatNumberIsSubnormalInTheDtypeItComputesIn) {
  // int64 // 1e-40 computes in float32 (the default dtype), float64 // 1e-40 in float64, float16 * 1e-8 in float16.
  EXPECT_TRUE(subnormal_values(make_case(
      R"({"op": "floor_divide", "shapes": [[2], {"number": 1e-40}], "dtypes": ["int64", "float64"], "values": {"data": [[3, 2], []]}})")));
  EXPECT_FALSE(subnormal_values(make_case(
      R"({"op": "floor_divide", "shapes": [[2], {"number": 1e-40}], "dtypes": ["float64", "float64"], "values": {"data": [[3, 2], []]}})")));
  EXPECT_TRUE(subnormal_values(make_case(
      R"({"op": "mul", "shapes": [[2], {"number": 1e-8}], "dtypes": ["float16", "float64"], "values": {"data": [[3, 2], []]}})")));
  EXPECT_FALSE(subnormal_values(make_case(
      R"({"op": "mul", "shapes": [[2], {"number": 0.0}], "dtypes": ["int8", "float64"], "values": {"data": [[3, 2], []]}})")));
}

}  // namespace
}  // namespace bc
