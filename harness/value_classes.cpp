#include "harness/value_classes.h"

#include <cmath>
#include <limits>

namespace bc {
namespace {

// splitmix64: a tiny, well-known 64-bit generator; ours to keep values stable across RapidCheck versions.
uint64_t next(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// One plain value (as a double: every plain value is exact in a double, the int64 extremes included).
double plain(uint64_t& state, DType dtype, bool special) {
  const double inf = std::numeric_limits<double>::infinity();
  if (special && next(state) % 6 == 0) {
    if (dtype == DType::int64) {
      // Drawn as doubles (exact for these four; INT64_MAX is not drawn, so that results stay as they were).
      static const double ints[] = {-9223372036854775808.0, 4611686018427387904.0, -1, 0};
      return ints[next(state) % 4];
    }
    if (category(dtype) == Category::integer) {
      // The narrower integers' extremes, where a sum or a product wraps around (int8's 127 + 1 is -128).
      const int bits = integer_bits(dtype);
      const double top = std::ldexp(1.0, is_unsigned(dtype) ? bits : bits - 1) - 1;
      const double ints[] = {is_unsigned(dtype) ? 0.0 : -top - 1, top, -1, 0};
      return ints[next(state) % 4];
    }
    if (dtype == DType::float16) {  // float16's largest value overflows to infinity in a sum
      static const double floats[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0, 65504.0};
      return floats[next(state) % 5];
    }
    if (dtype != DType::bool_) {
      static const double floats[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0};
      return floats[next(state) % 4];
    }
  }
  switch (category(dtype)) {
    case Category::boolean: return static_cast<double>(next(state) % 2);
    case Category::integer:
      if (is_unsigned(dtype)) return static_cast<double>(next(state) % 11);  // 0..10
      return static_cast<double>(static_cast<int64_t>(next(state) % 11) - 5);  // -5..5
    case Category::floating: {
      // Halves in [-4, 4]: exact in float32, with negatives and zero, so that comparisons are not at the mercy of
      // rounding in the inputs.
      return static_cast<double>(static_cast<int64_t>(next(state) % 17) - 8) / 2.0;
    }
  }
  return 0;
}

double random_sign(uint64_t& state) { return next(state) % 2 ? -1.0 : 1.0; }

// One value of a floating class (value_class_applies), exact in `dtype`: p significant bits, every finite value
// below 2^E, the smallest subnormal 2^(3 - E - p).
double floating(ValueClass c, uint64_t& state, DType dtype, uint64_t seed) {
  const int p = significand_bits(dtype), E = max_exponent(dtype);
  const uint64_t top = uint64_t{1} << (p - 1);  // the leading significand bit, as an integer
  switch (c) {
    case ValueClass::signed_zeros: return random_sign(state) * 0.0;
    case ValueClass::subnormal:  // m * 2^(3 - E - p), 0 < m < 2^(p - 1)
      return random_sign(state) * std::ldexp(static_cast<double>(1 + next(state) % (top - 1)), 3 - E - p);
    case ValueClass::largest: {
      const double choices[] = {std::ldexp(static_cast<double>(2 * top - 1), E - p),
                                std::ldexp(static_cast<double>(2 * top - 2), E - p), std::ldexp(1.0, E - 1)};
      return random_sign(state) * choices[next(state) % 3];
    }
    case ValueClass::overflow: {  // [2^(E/2), 2^E): x * x >= 2^E
      const int e = E / 2 + static_cast<int>(next(state) % static_cast<uint64_t>(E / 2));
      return random_sign(state) * std::ldexp(static_cast<double>(top + next(state) % top), e - (p - 1));
    }
    case ValueClass::rounding: {  // an odd p-bit significand, times 2^-2 ... 2^2
      const uint64_t m = top | 1 | (top > 2 ? 2 * (next(state) % (top / 2)) : 0);
      const int e = static_cast<int>(next(state) % 5) - 2;
      return random_sign(state) * std::ldexp(static_cast<double>(m), e - (p - 1));
    }
    case ValueClass::inexact_quotient: {
      static const int small[] = {3, 5, 7, 11, 13}, large[] = {17, 19, 23, 29, 31, 37, 41, 43};
      const bool odd = seed % 2 == 1;
      const int prime = odd ? large[next(state) % 8] : small[next(state) % 5];
      return (odd ? -1.0 : 1.0) * std::ldexp(prime, static_cast<int>(next(state) % 5) - 2);
    }
    case ValueClass::nonfinite: {
      if (next(state) % 2) return plain(state, dtype, false);
      const double inf = std::numeric_limits<double>::infinity();
      const double choices[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf};
      return choices[next(state) % 3];
    }
    case ValueClass::plain: case ValueClass::extremes: break;
  }
  return plain(state, dtype, false);
}

// One value of an integer class (value_class_applies), exact: the dtype holds [lo, hi].
int64_t integer(ValueClass c, uint64_t& state, DType dtype, uint64_t seed) {
  const int bits = integer_bits(dtype);
  const bool unsigned_ = is_unsigned(dtype);
  const int value_bits = unsigned_ ? bits : bits - 1;
  const int64_t hi = static_cast<int64_t>((uint64_t{1} << value_bits) - 1);  // 2^63 - 1 for int64
  const int64_t lo = unsigned_ ? 0 : -hi - 1;
  switch (c) {
    case ValueClass::overflow: {  // |x| >= 2^ceil(value_bits / 2): x * x > hi
      const int64_t least = int64_t{1} << ((value_bits + 1) / 2);
      const bool negative = !unsigned_ && next(state) % 2;
      // Magnitudes least ... hi (or least ... -lo), counted without overflow in uint64_t.
      const uint64_t span = static_cast<uint64_t>(hi - least) + (negative ? 2 : 1);
      const uint64_t m = static_cast<uint64_t>(least) + next(state) % span;
      return negative ? static_cast<int64_t>(0 - m) : static_cast<int64_t>(m);
    }
    case ValueClass::inexact_quotient: {
      static const int64_t small[] = {3, 5, 7, 11, 13}, large[] = {17, 19, 23, 29, 31, 37, 41, 43};
      const bool odd = seed % 2 == 1;
      const int64_t prime = odd ? large[next(state) % 8] : small[next(state) % 5];
      return odd && !unsigned_ ? -prime : prime;
    }
    case ValueClass::extremes: {
      const int64_t choices[] = {lo, lo + 1, hi - 1, hi, unsigned_ ? 2 : -1, 0, 1};
      return choices[next(state) % 7];
    }
    default: break;
  }
  return static_cast<int64_t>(plain(state, dtype, false));
}

}  // namespace

const std::vector<ValueClass>& all_value_classes() {
  static const std::vector<ValueClass> all = {
      ValueClass::plain,    ValueClass::signed_zeros,     ValueClass::subnormal, ValueClass::largest,
      ValueClass::overflow, ValueClass::rounding,         ValueClass::inexact_quotient,
      ValueClass::extremes, ValueClass::nonfinite};
  return all;
}

const char* to_string(ValueClass c) {
  switch (c) {
    case ValueClass::plain: return "plain";
    case ValueClass::signed_zeros: return "signed_zeros";
    case ValueClass::subnormal: return "subnormal";
    case ValueClass::largest: return "largest";
    case ValueClass::overflow: return "overflow";
    case ValueClass::rounding: return "rounding";
    case ValueClass::inexact_quotient: return "inexact_quotient";
    case ValueClass::extremes: return "extremes";
    case ValueClass::nonfinite: return "nonfinite";
  }
  return "plain";
}

std::optional<ValueClass> value_class_from_string(std::string_view name) {
  for (ValueClass c : all_value_classes())
    if (name == to_string(c)) return c;
  return std::nullopt;
}

std::string value_class_names() {
  std::string out;
  for (ValueClass c : all_value_classes()) out += (out.empty() ? "" : ", ") + std::string(to_string(c));
  return out;
}

bool value_class_applies(ValueClass c, DType dtype) {
  switch (c) {
    case ValueClass::plain: return true;
    case ValueClass::overflow: case ValueClass::inexact_quotient: return dtype != DType::bool_;
    case ValueClass::extremes: return category(dtype) == Category::integer;
    case ValueClass::signed_zeros: case ValueClass::subnormal: case ValueClass::largest: case ValueClass::rounding:
    case ValueClass::nonfinite:
      return category(dtype) == Category::floating;
  }
  return false;
}

Values class_values(ValueClass c, DType dtype, uint64_t seed, bool special, int64_t count) {
  uint64_t state = seed;
  const auto n = static_cast<size_t>(count);
  if (c == ValueClass::plain || !value_class_applies(c, dtype)) {
    std::vector<double> out(n);
    for (double& v : out) v = plain(state, dtype, special);
    return converted(Values(std::move(out)), dtype);
  }
  if (category(dtype) == Category::integer) {
    std::vector<int64_t> out(n);
    for (int64_t& v : out) v = integer(c, state, dtype, seed);
    return converted(Values(std::move(out)), dtype);
  }
  std::vector<double> out(n);
  for (double& v : out) v = floating(c, state, dtype, seed);
  return converted(Values(std::move(out)), dtype);
}

}  // namespace bc
