// Named facts about a case's values that a declaration can require ("when"), computed from the operands as built
// (harness/operands.h), whatever value class or seed drew them: values large enough that an intermediate of some
// grouping overflows, subnormal values, whose reciprocals and squares leave the dtype's range, and infinities.
#pragma once

#include "harness/case.h"

namespace bc {

// "large_values": a floating operand holds a finite value whose square overflows the narrowest floating dtype among
// the operands and the case's dtype= (|x| >= 2^(E/2), E that dtype's largest exponent + 1: 256 for float16,
// 2^64 for float32 and bfloat16): a product, a partial sum or alpha * b may overflow in one grouping or precision
// and not in another.
bool large_values(const Case& c);

// "subnormal_values": a floating operand holds a nonzero value below its dtype's smallest normal (2^(2 - E)):
// squares underflow to zero and reciprocals overflow, so each grouping of a formula gives its own result; or a float
// number is nonzero and below the smallest normal of the dtype it computes in (the narrowest floating tensor's, else
// float32): int64 // 1e-40 divides by a float32 subnormal.
bool subnormal_values(const Case& c);

// "infinite_values": a floating operand holds an infinity, so a formula regrouped (a - b * floor(a / b) against
// fmod, (a * dy) / b^2 against dy * (a / b) / b) meets inf - inf or inf / inf in one grouping and not in another.
bool infinite_values(const Case& c);

// "zero_divisor": a division or remainder (div, remainder, fmod, floor_divide, or in place) whose divisor, operand 1,
// is floating and holds a zero of either sign: quotients are infinite or NaN and their gradients meet 0 * inf.
bool zero_divisor(const Case& c);

}  // namespace bc
