// Scalars of 0 (the integer 0, 0.0 and -0.0) for alpha, beta and value, drawn together with non-finite operands:
// 0 * inf is NaN in a pointwise op, while the BLAS-style fused products never read what beta = 0 multiplies.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/case.h"

namespace bc::gen {

// One of `choices` (plus 0 and -0.0) as a case scalar: whole values are sometimes written as a float (LibTorch tells
// 2 from 2.0), -0.0 always is (an int has no sign of zero).
Scalar scalar_with_zeros(std::vector<std::pair<uint64_t, double>> choices);

// Whether some scalar the case gives is zero (either sign).
bool has_zero_scalar(const Case& c);

// Whether the values include NaN, inf and -0.0: one time in `one_in` usually, two times in three when a scalar is 0.
bool draw_special(const Case& c, uint64_t one_in);

// Tags "zero scalar" and, with special values, "zero scalar with special values" (coverage counts both).
void tag_zero_scalar(Case& c);

}  // namespace bc::gen
