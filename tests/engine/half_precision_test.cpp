#include "engine/half_precision.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace bc {

// Expected values are the formats' definitions (IEEE 754 binary16; bfloat16 = float32's upper 16 bits, rounded to
// nearest even), written as powers of two, not computed by the code under test.
TEST(HalfPrecision, Float16RoundsToElevenBitsTiesToEven) {
  EXPECT_EQ(round_to_float16(1.0), 1.0);
  EXPECT_EQ(round_to_float16(1 + std::ldexp(1.0, -11)), 1.0);                            // tie: to the even 1
  EXPECT_EQ(round_to_float16(1 + 3 * std::ldexp(1.0, -11)), 1 + std::ldexp(1.0, -9));  // tie: to the even 1+2^-9
  EXPECT_EQ(round_to_float16(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -20)), 1 + std::ldexp(1.0, -10));
  EXPECT_EQ(round_to_float16(0.1), 0.0999755859375);  // 0x2E66
  EXPECT_EQ(round_to_float16(2049), 2048);
  EXPECT_EQ(round_to_float16(2051), 2052);
}

TEST(HalfPrecision, Float16OverflowsAndSubnormals) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(round_to_float16(65504), 65504);
  EXPECT_EQ(round_to_float16(65519), 65504);
  EXPECT_EQ(round_to_float16(65520), inf);  // the tie above the largest value rounds to "even" 2^16: infinity
  EXPECT_EQ(round_to_float16(-1e6), -inf);
  EXPECT_EQ(round_to_float16(std::ldexp(1.0, -24)), std::ldexp(1.0, -24));  // the smallest subnormal
  EXPECT_EQ(round_to_float16(std::ldexp(1.0, -25)), 0.0);                   // tie: to the even 0
  EXPECT_EQ(round_to_float16(3 * std::ldexp(1.0, -26)), std::ldexp(1.0, -24));
  EXPECT_EQ(round_to_float16(3 * std::ldexp(1.0, -25)), std::ldexp(1.0, -23));  // tie: to the even 2 * 2^-24
  EXPECT_TRUE(std::signbit(round_to_float16(-std::ldexp(1.0, -30))));  // underflow keeps the sign
  EXPECT_TRUE(std::signbit(round_to_float16(-0.0)));
  EXPECT_TRUE(std::isnan(round_to_float16(std::nan(""))));
  EXPECT_EQ(round_to_float16(-inf), -inf);
}

TEST(HalfPrecision, BFloat16RoundsToEightBitsWithFloatRange) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(round_to_bfloat16(1 + std::ldexp(1.0, -8)), 1.0);                            // tie: to the even 1
  EXPECT_EQ(round_to_bfloat16(1 + 3 * std::ldexp(1.0, -8)), 1 + std::ldexp(1.0, -6));  // tie: to the even
  EXPECT_EQ(round_to_bfloat16(0.1), 0.10009765625);  // 0x3DCD
  EXPECT_EQ(round_to_bfloat16(257), 256);
  EXPECT_EQ(round_to_bfloat16(1e30), std::ldexp(202.0, 92));  // 1e30 / 2^92 = 201.95, in [2^99, 2^100)
  EXPECT_EQ(round_to_bfloat16(std::ldexp(255.0, 120)), std::ldexp(255.0, 120));  // the largest value
  EXPECT_EQ(round_to_bfloat16(std::numeric_limits<float>::max()), inf);
  EXPECT_EQ(round_to_bfloat16(std::ldexp(1.0, -133)), std::ldexp(1.0, -133));  // the smallest subnormal
  EXPECT_EQ(round_to_bfloat16(std::ldexp(1.0, -134)), 0.0);
  EXPECT_TRUE(std::isnan(round_to_bfloat16(std::nan(""))));
  EXPECT_TRUE(std::signbit(round_to_bfloat16(-0.0)));
}

// A double becomes a float first, as c10::Half(float) is what a store from double calls: two roundings.
TEST(HalfPrecision, DoubleGoesThroughFloat) {
  // 1 + 2^-11 + 2^-40 is above the float16 tie, but float rounds it to the tie 1 + 2^-11, which goes to even 1.
  EXPECT_EQ(round_to_float16(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 1.0);
}

}  // namespace bc
