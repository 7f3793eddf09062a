#include "engine/scalar_overflow.h"

#include <gtest/gtest.h>

namespace bc {

// LibTorch 1.13 (probed): addcmul on uint8 with value=-1.0 fails "value cannot be converted to type uint8_t without
// overflow"; an integral -1 wraps (c10::overflows lets a negative integer into an unsigned type).
TEST(ScalarOverflow, FollowsCtensOverflowsRule) {
  EXPECT_EQ(scalar_overflow(-1.0, false, DType::uint8),
            (Error{ErrorKind::other, "value cannot be converted to type uint8_t without overflow"}));
  EXPECT_FALSE(scalar_overflow(-1, true, DType::uint8));
  EXPECT_TRUE(scalar_overflow(-256, true, DType::uint8));
  EXPECT_FALSE(scalar_overflow(-255, true, DType::uint8));
  EXPECT_EQ(scalar_overflow(-1e6, false, DType::int8)->message, "value cannot be converted to type int8_t without overflow");
  EXPECT_FALSE(scalar_overflow(127, true, DType::int8));
  EXPECT_TRUE(scalar_overflow(128, true, DType::int8));
  EXPECT_EQ(scalar_overflow(1e10, true, DType::int32)->message, "value cannot be converted to type int without overflow");
  EXPECT_EQ(scalar_overflow(-1e6, false, DType::float16)->message,
            "value cannot be converted to type at::Half without overflow");
  EXPECT_FALSE(scalar_overflow(65504, false, DType::float16));
  EXPECT_FALSE(scalar_overflow(-1e6, false, DType::bfloat16));
  EXPECT_FALSE(scalar_overflow(1e300, false, DType::float64));
  EXPECT_FALSE(scalar_overflow(0.5, false, DType::int8));  // a fraction truncates; only the range is checked
}

}  // namespace bc
