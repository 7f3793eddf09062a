// addcmul and addcdiv (seed 003's three-operand pointwise ops): c + value * a * b and c + value * a / b, all three
// operands broadcast together and promoted to one dtype, computed in one pass as LibTorch 1.13's kernels do (the
// value converted to the computation dtype first, so an integer computation truncates a fractional value).
// addcdiv refuses integer division up front; the in-place forms follow engine/inplace.h's rules in LibTorch's order
// and, where the result type may be cast to self's dtype, compute in that type and store converted (as add_ does).
#pragma once

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

enum class AddcOp { addcmul, addcdiv };

Result<Tensor> addc(AddcOp op, const Tensor& c, const Tensor& a, const Tensor& b, Scalar value = {});
Result<Tensor> addc_(AddcOp op, Tensor& c, const Tensor& a, const Tensor& b, Scalar value = {});

}  // namespace bc
