#include "engine/dtype.h"

#include <cmath>

#include <gtest/gtest.h>

#include "engine/tensor.h"

namespace bc {

TEST(DType, NamesRoundTrip) {
  for (DType t : all_dtypes()) EXPECT_EQ(dtype_from_string(to_string(t)), t);
  EXPECT_FALSE(dtype_from_string("half"));
  EXPECT_EQ(dtype_names(), "bool, int64, float32, float64, int8, uint8, int16, int32, float16, bfloat16");
  EXPECT_STREQ(torch_name(DType::int8), "Char");
  EXPECT_STREQ(torch_name(DType::uint8), "Byte");
  EXPECT_STREQ(torch_name(DType::bfloat16), "BFloat16");
  EXPECT_STREQ(cxx_type_name(DType::float16), "c10::Half");
}

// The format facts agree with the stores' own rounding (engine/tensor.h convert): 2^bits and 2^bits - 1 are exact,
// 2^bits + 1 is not; 2^(max_exponent - 1) is finite, 2^max_exponent overflows to inf.
TEST(DType, FloatingFormatFactsMatchTheStoresRounding) {
  for (DType t : all_dtypes()) {
    if (category(t) != Category::floating) {
      EXPECT_EQ(significand_bits(t), 0) << to_string(t);
      EXPECT_EQ(max_exponent(t), 0) << to_string(t);
      continue;
    }
    const int64_t top = int64_t{1} << significand_bits(t);  // integers, so that top + 1 is not rounded before
    EXPECT_EQ(convert(Value::of_int(top), t).f, std::ldexp(1.0, significand_bits(t))) << to_string(t);
    EXPECT_EQ(static_cast<int64_t>(convert(Value::of_int(top - 1), t).f), top - 1) << to_string(t);
    EXPECT_NE(static_cast<int64_t>(convert(Value::of_int(top + 1), t).f), top + 1) << to_string(t);
    EXPECT_TRUE(std::isfinite(convert(Value::of_float(std::ldexp(1.0, max_exponent(t) - 1)), t).f)) << to_string(t);
    EXPECT_TRUE(std::isinf(convert(Value::of_float(std::ldexp(1.0, max_exponent(t))), t).f)) << to_string(t);
  }
}

TEST(DType, PromotionFollowsTheCategories) {
  EXPECT_EQ(promote_types(DType::bool_, DType::int64), DType::int64);
  EXPECT_EQ(promote_types(DType::int64, DType::float32), DType::float32);
  EXPECT_EQ(promote_types(DType::float32, DType::float64), DType::float64);
  for (DType a : all_dtypes())
    for (DType b : all_dtypes()) EXPECT_EQ(promote_types(a, b), promote_types(b, a));
}

// c10's promoteTypes table (c10/core/ScalarType.cpp, LibTorch 1.13), row by row for the new dtypes, written out
// here as the table writes it (u1 i1 i2 i4 i8 f2 f4 f8 b1 bf), not derived from the rules under test.
TEST(DType, PromotionIsCtensPromoteTypesTable) {
  using D = DType;
  const D order[] = {D::uint8, D::int8, D::int16, D::int32, D::int64, D::float16, D::float32, D::float64, D::bool_, D::bfloat16};
  const D table[10][10] = {
      /* u1 */ {D::uint8, D::int16, D::int16, D::int32, D::int64, D::float16, D::float32, D::float64, D::uint8, D::bfloat16},
      /* i1 */ {D::int16, D::int8, D::int16, D::int32, D::int64, D::float16, D::float32, D::float64, D::int8, D::bfloat16},
      /* i2 */ {D::int16, D::int16, D::int16, D::int32, D::int64, D::float16, D::float32, D::float64, D::int16, D::bfloat16},
      /* i4 */ {D::int32, D::int32, D::int32, D::int32, D::int64, D::float16, D::float32, D::float64, D::int32, D::bfloat16},
      /* i8 */ {D::int64, D::int64, D::int64, D::int64, D::int64, D::float16, D::float32, D::float64, D::int64, D::bfloat16},
      /* f2 */ {D::float16, D::float16, D::float16, D::float16, D::float16, D::float16, D::float32, D::float64, D::float16, D::float32},
      /* f4 */ {D::float32, D::float32, D::float32, D::float32, D::float32, D::float32, D::float32, D::float64, D::float32, D::float32},
      /* f8 */ {D::float64, D::float64, D::float64, D::float64, D::float64, D::float64, D::float64, D::float64, D::float64, D::float64},
      /* b1 */ {D::uint8, D::int8, D::int16, D::int32, D::int64, D::float16, D::float32, D::float64, D::bool_, D::bfloat16},
      /* bf */ {D::bfloat16, D::bfloat16, D::bfloat16, D::bfloat16, D::bfloat16, D::float32, D::float32, D::float64, D::bfloat16, D::bfloat16},
  };
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j)
      EXPECT_EQ(promote_types(order[i], order[j]), table[i][j]) << to_string(order[i]) << " " << to_string(order[j]);
}

TEST(DType, ZeroDimTensorsOfTheSameCategoryDoNotWiden) {
  EXPECT_EQ(result_type({{DType::uint8, false}, {DType::int8, true}}), DType::uint8);
  EXPECT_EQ(result_type({{DType::int32, false}, {DType::float16, true}}), DType::float16);
  EXPECT_EQ(result_type({{DType::bfloat16, false}, {DType::float16, true}}), DType::bfloat16);
  EXPECT_EQ(result_type({{DType::bfloat16, false}, {DType::float64, true}}), DType::bfloat16);
  EXPECT_EQ(result_type({{DType::bool_, false}, {DType::uint8, true}}), DType::uint8);
}

// Observed with at::result_type on libtorch-dev 1.13.1: a 0-d tensor counts only when its category is higher.
TEST(DType, ZeroDimTensorsTakePartOnlyWhenTheirCategoryIsHigher) {
  EXPECT_EQ(result_type({{DType::int64, false}, {DType::float64, true}}), DType::float64);
  EXPECT_EQ(result_type({{DType::float32, false}, {DType::float64, true}}), DType::float32);
  EXPECT_EQ(result_type({{DType::bool_, false}, {DType::int64, true}}), DType::int64);
  EXPECT_EQ(result_type({{DType::int64, false}, {DType::bool_, true}}), DType::int64);
  EXPECT_EQ(result_type({{DType::int64, true}, {DType::float32, true}}), DType::float32);
  EXPECT_EQ(result_type({{DType::float32, false}, {DType::float64, false}}), DType::float64);
}

// A wrapped number (a Python scalar) counts by its category alone, below the 0-d tensors: a float as the default
// float dtype float32, an int as int64, a bool as bool (each checked with at::add on libtorch-dev 1.13.1: int8 + 2.5
// is Float, int8 + 300 is Char, float16 + 1e10 is Half, bool + 3 is Long, a 0-d int8 + 2.5 is Float, a 0-d
// float64 + 2.5 is Double, a 0-d int32 + 5 is Int).
TEST(DType, WrappedNumbersCountOnlyByTheirCategory) {
  const auto wrapped = [](DType t) { return Operand{t, true, true}; };
  EXPECT_EQ(result_type({{DType::int8, false}, wrapped(DType::float64)}), DType::float32);
  EXPECT_EQ(result_type({{DType::int8, false}, wrapped(DType::int64)}), DType::int8);
  EXPECT_EQ(result_type({{DType::uint8, false}, wrapped(DType::bool_)}), DType::uint8);
  EXPECT_EQ(result_type({{DType::float16, false}, wrapped(DType::float64)}), DType::float16);
  EXPECT_EQ(result_type({{DType::bool_, false}, wrapped(DType::int64)}), DType::int64);
  EXPECT_EQ(result_type({{DType::bool_, false}, wrapped(DType::float64)}), DType::float32);
  EXPECT_EQ(result_type({{DType::int8, true}, wrapped(DType::float64)}), DType::float32);
  EXPECT_EQ(result_type({{DType::float64, true}, wrapped(DType::float64)}), DType::float64);
  EXPECT_EQ(result_type({{DType::int32, true}, wrapped(DType::int64)}), DType::int32);
  EXPECT_EQ(result_type({wrapped(DType::float64), wrapped(DType::int64)}), DType::float32);
  // Unwrapped, the same 0-d float64 tensor is a float64 where no tensor has dims.
  EXPECT_EQ(result_type({{DType::int8, true}, {DType::float64, true}}), DType::float64);
}

TEST(DType, CastingRulesAndMessage) {
  EXPECT_FALSE(can_cast(DType::float32, DType::int64));
  EXPECT_FALSE(can_cast(DType::int64, DType::bool_));
  EXPECT_TRUE(can_cast(DType::bool_, DType::bool_));
  EXPECT_TRUE(can_cast(DType::int64, DType::float32));
  EXPECT_TRUE(can_cast(DType::float64, DType::float32));
  EXPECT_TRUE(can_cast(DType::int64, DType::int8));  // integers narrow freely (and wrap)
  EXPECT_FALSE(can_cast(DType::float16, DType::uint8));
  EXPECT_EQ(cast_error(DType::float16, DType::int8).message,
            "result type Half can't be cast to the desired output type Char");
  EXPECT_EQ(cast_error(DType::float32, DType::int64),
            (Error{ErrorKind::dtype_cast, "result type Float can't be cast to the desired output type Long"}));
  EXPECT_EQ(cast_error(DType::int64, DType::bool_).message,
            "result type Long can't be cast to the desired output type Bool");
}

}  // namespace bc
