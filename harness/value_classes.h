// Value classes: the kinds of operand values a case may ask for, each a pure function (class, dtype, seed, count)
// -> values, exact in the dtype (an int64 never passes through a double; NaN, infinities and -0.0 kept). `plain` is
// what a case without a class draws (small exact numbers; NaN, +-inf, -0.0 and the integer extremes one time in
// six when `special` is set). A class that does not apply to a dtype (subnormals of an integer) draws plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dtype.h"
#include "harness/values.h"

namespace bc {

enum class ValueClass {
  plain,             // every dtype: today's values (above)
  signed_zeros,      // floating: 0.0 and -0.0, each sign at random
  subnormal,         // floating: subnormals of the dtype (float16's 2^-24 ... bfloat16's 2^-133 ...), either sign
  largest,           // floating: +-the largest finite value, the one below it, and 2^(max exponent - 1)
  overflow,          // floating and integer (not bool): |x| so large that x * x overflows the dtype
  rounding,          // floating: full odd significands near 1, so that every product of two of them rounds
  inexact_quotient,  // floating and integer (not bool): odd primes; two draws of consecutive seeds (operands k and
                     // k + 1 of a case) come from disjoint sets and, where the dtype is signed, opposite signs, so
                     // that every quotient between them is negative and inexact and every remainder nonzero
  extremes,          // integer: the dtype's min, min + 1, max - 1, max, -1, 0, 1
  nonfinite,         // floating: NaN, inf or -inf for half the elements, plain values for the others
};

const std::vector<ValueClass>& all_value_classes();  // plain first
const char* to_string(ValueClass c);                 // "plain", "signed_zeros", ... as cases write them
std::optional<ValueClass> value_class_from_string(std::string_view name);
std::string value_class_names();                     // "plain, signed_zeros, ..."

// Whether class `c` draws its own values for `dtype` (plain: every dtype; bool: plain only).
bool value_class_applies(ValueClass c, DType dtype);

// `count` values of class `c` in `dtype`, drawn from `seed`; `special` matters to plain values only.
Values class_values(ValueClass c, DType dtype, uint64_t seed, bool special, int64_t count);

}  // namespace bc
