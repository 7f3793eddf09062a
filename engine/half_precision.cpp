#include "engine/half_precision.h"

#include <cmath>
#include <limits>

namespace bc {
namespace {

// Rounds a float to `bits` significant bits, ties to even, where the smallest normal exponent is `min_exp`
// (frexp's convention: a normal value is m * 2^e with 0.5 <= m < 1, so e >= min_exp) and values whose rounded
// magnitude exceeds `max` overflow to infinity. Scaling by powers of two is exact, so one nearbyint rounds.
double round_to(float f, int bits, int min_exp, double max) {
  const double v = f;
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  int e = 0;
  std::frexp(v, &e);
  if (e < min_exp) e = min_exp;  // subnormals share the smallest normal exponent's quantum
  const double quantum = std::ldexp(1.0, e - bits);
  const double r = std::nearbyint(v / quantum) * quantum;  // the default rounding mode: to nearest, ties to even
  if (std::fabs(r) > max) return std::copysign(std::numeric_limits<double>::infinity(), v);
  return r;
}

}  // namespace

double round_to_float16(double v) { return round_to(static_cast<float>(v), 11, -13, std::ldexp(2047.0, 5)); }  // max 65504

double round_to_bfloat16(double v) {
  return round_to(static_cast<float>(v), 8, -125, std::ldexp(255.0, 120));  // max (2 - 2^-7) * 2^127
}

}  // namespace bc
