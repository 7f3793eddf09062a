#include "harness/value_classes.h"

#include <cfloat>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

namespace bc {
namespace {

// Each dtype's limits written out here, independently of engine/dtype.h: the largest finite value, the smallest
// normal magnitude, the smallest subnormal, the significant bits.
struct Floating {
  DType dtype;
  double max, min_normal, min_subnormal;
  int bits;
};
const Floating kFloats[] = {
    {DType::float16, 65504.0, 6.103515625e-05, 5.9604644775390625e-08, 11},
    {DType::bfloat16, 3.3895313892515355e38, 1.1754943508222875e-38, 9.183549615799121e-41, 8},
    {DType::float32, FLT_MAX, FLT_MIN, FLT_TRUE_MIN, 24},
    {DType::float64, DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 53},
};
struct Integer {
  DType dtype;
  __int128 lo, hi;
};
const Integer kIntegers[] = {
    {DType::int8, INT8_MIN, INT8_MAX},    {DType::uint8, 0, UINT8_MAX},     {DType::int16, INT16_MIN, INT16_MAX},
    {DType::int32, INT32_MIN, INT32_MAX}, {DType::int64, INT64_MIN, INT64_MAX},
};

constexpr int64_t kCount = 512;

// Whether `x` (finite) has at most `bits` significant bits.
bool fits(double x, int bits) {
  if (x == 0) return true;
  int e = 0;
  const double m = std::frexp(x, &e);
  return std::ldexp(m, bits) == std::trunc(std::ldexp(m, bits));
}

// Whether the exact product a * b is representable with `bits` significant bits (exact in a double below 27).
bool product_exact(double a, double b, int bits) {
  if (bits == 53) return std::fma(a, b, -(a * b)) == 0;
  return fits(a * b, bits);
}

}  // namespace

TEST(ValueClasses, NamesRoundTrip) {
  for (ValueClass c : all_value_classes()) EXPECT_EQ(value_class_from_string(to_string(c)), c);
  EXPECT_EQ(value_class_from_string("overflows"), std::nullopt);
  EXPECT_EQ(all_value_classes().front(), ValueClass::plain);
}

TEST(ValueClasses, PureExactAndOfTheDtypesKind) {
  for (ValueClass c : all_value_classes())
    for (DType t : all_dtypes()) {
      const Values v = class_values(c, t, 17, false, kCount);
      SCOPED_TRACE(std::string(to_string(c)) + " " + to_string(t));
      EXPECT_EQ(v.size(), static_cast<size_t>(kCount));
      EXPECT_EQ(v.integers(), holds_integers(t));
      EXPECT_EQ(v, class_values(c, t, 17, false, kCount));  // pure
      EXPECT_NE(v, class_values(c, t, 18, false, kCount));  // the seed decides
      EXPECT_EQ(converted(v, t), v);                        // already in the dtype
    }
}

TEST(ValueClasses, AClassThatDoesNotApplyDrawsPlainValues) {
  for (ValueClass c : all_value_classes())
    for (DType t : all_dtypes())
      if (!value_class_applies(c, t)) EXPECT_EQ(class_values(c, t, 5, true, 64), class_values(ValueClass::plain, t, 5, true, 64));
  for (ValueClass c : all_value_classes()) EXPECT_EQ(value_class_applies(c, DType::bool_), c == ValueClass::plain);
}

TEST(ValueClasses, SignedZerosAreZerosOfBothSigns) {
  for (const Floating& f : kFloats) {
    const Values v = class_values(ValueClass::signed_zeros, f.dtype, 3, false, kCount);
    int negative = 0;
    for (double x : v.floats()) {
      EXPECT_EQ(x, 0.0);
      negative += std::signbit(x) ? 1 : 0;
    }
    EXPECT_GT(negative, 0);
    EXPECT_LT(negative, kCount);
  }
}

TEST(ValueClasses, SubnormalsAreSubnormalInTheirDtype) {
  for (const Floating& f : kFloats) {
    SCOPED_TRACE(to_string(f.dtype));
    const Values drawn = class_values(ValueClass::subnormal, f.dtype, 4, false, kCount);
    for (double x : drawn.floats()) {
      if (f.dtype == DType::float32) EXPECT_EQ(std::fpclassify(static_cast<float>(x)), FP_SUBNORMAL) << x;
      if (f.dtype == DType::float64) EXPECT_EQ(std::fpclassify(x), FP_SUBNORMAL) << x;
      // Every dtype: below the smallest normal, a whole multiple of the smallest subnormal.
      EXPECT_GT(std::fabs(x), 0.0);
      EXPECT_LT(std::fabs(x), f.min_normal) << x;
      EXPECT_EQ(std::fmod(x, f.min_subnormal), 0.0) << x;
    }
  }
}

TEST(ValueClasses, LargestAreTheLargestFiniteValues) {
  for (const Floating& f : kFloats) {
    bool max = false, lowest = false;
    const Values drawn = class_values(ValueClass::largest, f.dtype, 5, false, kCount);
    for (double x : drawn.floats()) {
      EXPECT_TRUE(std::isfinite(x));
      EXPECT_LE(std::fabs(x), f.max);
      EXPECT_GE(std::fabs(x), f.max / 2);
      max = max || x == f.max;
      lowest = lowest || x == -f.max;
    }
    EXPECT_TRUE(max && lowest) << to_string(f.dtype);
  }
}

TEST(ValueClasses, OverflowSquaresOverflowTheDtype) {
  for (const Floating& f : kFloats) {
    // The square rounds to infinity in the dtype when it reaches max + half an ulp of max.
    const long double threshold = static_cast<long double>(f.max) + std::ldexp(static_cast<long double>(f.max), -f.bits - 1);
    const Values drawn = class_values(ValueClass::overflow, f.dtype, 6, false, kCount);
    for (double x : drawn.floats()) {
      EXPECT_TRUE(std::isfinite(x));
      EXPECT_GE(static_cast<long double>(x) * x, threshold) << to_string(f.dtype) << " " << x;
    }
  }
  for (const Integer& i : kIntegers) {
    bool negative = false;
    const Values drawn = class_values(ValueClass::overflow, i.dtype, 6, false, kCount);
    for (int64_t x : drawn.ints()) {
      EXPECT_GE(x, i.lo);
      EXPECT_LE(x, i.hi);
      EXPECT_GT(static_cast<__int128>(x) * x, i.hi) << to_string(i.dtype) << " " << x;
      negative = negative || x < 0;
    }
    EXPECT_EQ(negative, i.lo < 0) << to_string(i.dtype);
  }
}

TEST(ValueClasses, RoundingProductsRoundInTheDtype) {
  for (const Floating& f : kFloats) {
    const Values a = class_values(ValueClass::rounding, f.dtype, 7, false, kCount);
    const Values b = class_values(ValueClass::rounding, f.dtype, 8, false, kCount);
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_TRUE(fits(a.floats()[k], f.bits));
      EXPECT_FALSE(product_exact(a.floats()[k], b.floats()[k], f.bits)) << a.floats()[k] << " * " << b.floats()[k];
      EXPECT_FALSE(product_exact(a.floats()[k], a.floats()[k], f.bits)) << a.floats()[k] << " squared";
    }
  }
}

TEST(ValueClasses, ConsecutiveSeedsGiveNegativeInexactQuotientsAndNonzeroRemainders) {
  for (uint64_t seed : {10u, 11u}) {
    for (const Floating& f : kFloats) {
      const Values a = class_values(ValueClass::inexact_quotient, f.dtype, seed, false, 64);
      const Values b = class_values(ValueClass::inexact_quotient, f.dtype, seed + 1, false, 64);
      for (double x : a.floats())
        for (double y : b.floats()) {
          EXPECT_LT(x / y, 0) << x << " / " << y;
          EXPECT_NE(std::fma(x / y, y, -x), 0) << x << " / " << y;  // the quotient is not even exact in a double
          EXPECT_NE(std::fmod(x, y), 0) << x << " % " << y;
          EXPECT_NE(std::fmod(y, x), 0) << y << " % " << x;
        }
    }
    for (const Integer& i : kIntegers) {
      const Values a = class_values(ValueClass::inexact_quotient, i.dtype, seed, false, 64);
      const Values b = class_values(ValueClass::inexact_quotient, i.dtype, seed + 1, false, 64);
      for (int64_t x : a.ints())
        for (int64_t y : b.ints()) {
          if (i.lo < 0) EXPECT_LT(x * y, 0) << x << " / " << y;
          EXPECT_NE(x % y, 0) << x << " % " << y;
          EXPECT_NE(y % x, 0) << y << " % " << x;
        }
    }
  }
}

TEST(ValueClasses, ExtremesReachBothEndsOfEachIntegerType) {
  for (const Integer& i : kIntegers) {
    bool lo = false, hi = false;
    const Values drawn = class_values(ValueClass::extremes, i.dtype, 9, false, kCount);
    for (int64_t x : drawn.ints()) {
      EXPECT_GE(x, i.lo);
      EXPECT_LE(x, i.hi);
      lo = lo || x == i.lo;
      hi = hi || x == i.hi;
    }
    EXPECT_TRUE(lo && hi) << to_string(i.dtype);
  }
}

TEST(ValueClasses, NonfiniteHoldsNanAndBothInfinities) {
  for (const Floating& f : kFloats) {
    int nan = 0, inf = 0, minus_inf = 0, finite = 0;
    const Values drawn = class_values(ValueClass::nonfinite, f.dtype, 12, false, kCount);
    for (double x : drawn.floats()) {
      nan += std::isnan(x) ? 1 : 0;
      inf += x == INFINITY ? 1 : 0;
      minus_inf += x == -INFINITY ? 1 : 0;
      finite += std::isfinite(x) ? 1 : 0;
    }
    EXPECT_TRUE(nan > 0 && inf > 0 && minus_inf > 0 && finite > 0) << to_string(f.dtype);
  }
}

}  // namespace bc
