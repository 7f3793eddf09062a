#include "engine/dtype.h"

#include <gtest/gtest.h>

namespace bc {

TEST(DType, NamesRoundTrip) {
  for (DType t : all_dtypes()) EXPECT_EQ(dtype_from_string(to_string(t)), t);
  EXPECT_FALSE(dtype_from_string("float16"));
  EXPECT_EQ(dtype_names(), "bool, int64, float32, float64");
}

TEST(DType, PromotionFollowsTheCategories) {
  EXPECT_EQ(promote_types(DType::bool_, DType::int64), DType::int64);
  EXPECT_EQ(promote_types(DType::int64, DType::float32), DType::float32);
  EXPECT_EQ(promote_types(DType::float32, DType::float64), DType::float64);
  for (DType a : all_dtypes())
    for (DType b : all_dtypes()) EXPECT_EQ(promote_types(a, b), promote_types(b, a));
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

TEST(DType, CastingRulesAndMessage) {
  EXPECT_FALSE(can_cast(DType::float32, DType::int64));
  EXPECT_FALSE(can_cast(DType::int64, DType::bool_));
  EXPECT_TRUE(can_cast(DType::bool_, DType::bool_));
  EXPECT_TRUE(can_cast(DType::int64, DType::float32));
  EXPECT_TRUE(can_cast(DType::float64, DType::float32));
  EXPECT_EQ(cast_error(DType::float32, DType::int64),
            (Error{ErrorKind::dtype_cast, "result type Float can't be cast to the desired output type Long"}));
  EXPECT_EQ(cast_error(DType::int64, DType::bool_).message,
            "result type Long can't be cast to the desired output type Bool");
}

}  // namespace bc
