#include "harness/tolerance.h"

#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

namespace bc {

TEST(Tolerance, TorchTestingDefaults) {
  EXPECT_EQ(tolerance_for(DType::float32).rtol, 1.3e-6);
  EXPECT_EQ(tolerance_for(DType::float32).atol, 1e-5);
  EXPECT_EQ(tolerance_for(DType::float64).rtol, 1e-7);
  EXPECT_EQ(tolerance_for(DType::int64).atol, 0);
  // torch/testing/_comparison.py's _DTYPE_PRECISIONS for the 16-bit floats; the narrow integers exactly.
  EXPECT_EQ(tolerance_for(DType::float16).rtol, 1e-3);
  EXPECT_EQ(tolerance_for(DType::float16).atol, 1e-5);
  EXPECT_EQ(tolerance_for(DType::bfloat16).rtol, 1.6e-2);
  EXPECT_EQ(tolerance_for(DType::int8).atol, 0);
}

TEST(Tolerance, LeastPreciseDtype) {
  EXPECT_EQ(least_precise({}), DType::float64);
  EXPECT_EQ(least_precise({DType::float64, DType::int8}), DType::float32);  // an integer computes in float32
  EXPECT_EQ(least_precise({DType::float32, DType::float16}), DType::float16);
  EXPECT_EQ(least_precise({DType::float16, DType::bfloat16, DType::float64}), DType::bfloat16);
  EXPECT_EQ(gradient_tolerance({DType::bfloat16, DType::float32}, 1).rtol, 1.6e-2);
}

TEST(Tolerance, CloseValuesAndNanAreEqual) {
  EXPECT_FALSE(compare_values({1.0, NAN, INFINITY}, {1.0 + 5e-6, NAN, INFINITY}, DType::float32, {3}));
  EXPECT_TRUE(compare_values({1.0}, {1.0 + 5e-6}, DType::float64, {1}));
  EXPECT_TRUE(compare_values({INFINITY}, {-INFINITY}, DType::float32, {1}));
  EXPECT_TRUE(compare_values({1}, {NAN}, DType::float32, {1}));
  EXPECT_TRUE(compare_values({3}, {4}, DType::int64, {1}));
}

TEST(Tolerance, IntegersAreComparedAsInt64NotAsDoubles) {
  const Values a(std::vector<int64_t>{9007199254740993, INT64_MAX}), b(std::vector<int64_t>{9007199254740992, INT64_MAX});
  auto m = compare_values(a, b, DType::int64, {2});
  ASSERT_TRUE(m) << "equal as doubles, one apart as int64";
  EXPECT_EQ(m->mismatched, 1);
  EXPECT_EQ(m->max_abs, 1);
  EXPECT_FALSE(compare_values(a, a, Tolerance{1, 1}, {2}));
  EXPECT_TRUE(compare_values(a, b, Tolerance{1, 1}, {2})) << "integers are exact whatever the tolerance";
}

TEST(Tolerance, MismatchIsReportedAsTorchTestingDoes) {
  auto m = compare_values({0, 1, 2, 3, 4, 5}, {0, 1.5, 2, 3, 4, 4}, DType::float32, {2, 3});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->mismatched, 2);
  EXPECT_EQ(m->total, 6);
  EXPECT_EQ(m->max_abs, 1);
  EXPECT_EQ(m->abs_at, (Shape{1, 2}));
  EXPECT_EQ(m->rel_at, (Shape{0, 1}));
  EXPECT_EQ(m->text,
            "Tensor-likes are not close! Mismatched elements: 2 / 6 (33.3%). Greatest absolute difference: 1 at "
            "index (1, 2) (up to 1e-05 allowed). Greatest relative difference: 0.5 at index (0, 1) (up to 1.3e-06 "
            "allowed).");
  EXPECT_EQ(compare_values({1}, {2}, DType::int64, {1})->text.rfind("Tensor-likes are not equal!", 0), 0u);
}

}  // namespace bc

namespace bc {

TEST(Tolerance, GradientToleranceFollowsTheLeastPreciseDtypeAndTheSumLength) {
  const Tolerance f64 = gradient_tolerance({DType::float64, DType::float64}, 1);
  EXPECT_EQ(f64.rtol, 1e-7);
  const Tolerance mixed = gradient_tolerance({DType::float32, DType::float64}, 1);
  EXPECT_EQ(mixed.rtol, 1.3e-6);  // a float64 gradient through float32 arithmetic is float32-accurate
  const Tolerance long_sum = gradient_tolerance({DType::float32}, 100);
  EXPECT_DOUBLE_EQ(long_sum.atol, 1e-4);
  // 3e-7 relative apart: far for float64's tolerance, close for the gradient's.
  EXPECT_TRUE(compare_values({1.0}, {1.0 + 3e-7}, DType::float64, {1}).has_value());
  EXPECT_FALSE(compare_values({1.0}, {1.0 + 3e-7}, mixed, {1}).has_value());
}

}  // namespace bc
