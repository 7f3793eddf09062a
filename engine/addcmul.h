// addcmul and addcdiv (seed 003's three-operand pointwise ops): c + value * a * b and c + value * a / b, all three
// operands broadcast together and promoted to one dtype, as LibTorch 1.13's one-kernel ops compute them (so the
// value is converted to the computation dtype first: an integer computation truncates a fractional value).
// The in-place forms write c and follow the in-place rules of engine/elementwise.h in LibTorch's order.
#pragma once

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

enum class AddcOp { addcmul, addcdiv };

Result<Tensor> addc(AddcOp op, const Tensor& c, const Tensor& a, const Tensor& b, Scalar value = {});
Result<Tensor> addc_(AddcOp op, Tensor& c, const Tensor& a, const Tensor& b, Scalar value = {});

}  // namespace bc
