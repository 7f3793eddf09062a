// Cases with a Python number as an operand (harness/case.h: Case::numbers): x + 2.5, x.mul_(3), where(c, x, 0.0),
// torch.add(x, 2, out=o); drawn by construction, never by filtering.
#pragma once

#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc::gen {

// A number of each kind (int, float, bool; ints and floats most often), from values that tell the promotion rules
// apart: small ones, ones beyond a narrow dtype's range (300 for int8, 2^31 for int32, 1e10 for float16, 1e39 for
// float32), ones that a double cannot hold (2^53 + 1), the int64 extremes, -0.0, NaN and the infinities. Shrinks
// towards the int 1, then small ints, then the float 1.0.
rc::Gen<Number> number();

// The generator classes of a number case (harness/coverage.h): "number int", "number float", "number bool",
// "number non-finite", "number -0.0", "number beyond the dtype" (it does not fit the tensor's dtype: an int out of
// an integer dtype's range, a finite float beyond a floating dtype's largest), "number with a 0-d tensor",
// "numbers only" (where with two numbers).
std::vector<std::string> number_tags(const Case& c);

// A pointwise binary op that PyTorch takes a number for (add ... ge, floor_divide: LibTorch's Scalar overloads),
// out of place, in place or with out=, or where with a number as x, y or both; a tensor of any dtype, rank 0-3,
// with values (special ones a quarter of the time), sometimes requiring grad, alpha for add and sub. Shrinks
// towards add, the int 1, a float32 tensor, no out=, then smaller shapes.
rc::Gen<Case> number_case();

}  // namespace bc::gen
