// The out= form of a pointwise binary op (add(a, b, out=t)) as LibTorch 1.13 runs it: autograd refuses it when an
// input requires grad and the op has a derivative formula; then the op's own checks and the cast of the result
// type to out's dtype (engine/elementwise.h binary_out); then out takes the result's shape, with LibTorch's
// deprecation warning when it had elements and another shape.
#pragma once

#include <string>
#include <vector>

#include "engine/op_table.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

struct OutForm {
  Tensor result;                      // out after the call: the result's shape, out's dtype
  std::vector<std::string> warnings;  // LibTorch's warning texts, in order
};

// op(a, b, alpha, out=t) for a t of `out_shape` and `out_dtype`; `requires_grad`: some input or t requires grad.
Result<OutForm> binary_out_form(Op op, const Tensor& a, const Tensor& b, Scalar alpha, const Shape& out_shape,
                                DType out_dtype, bool requires_grad);

// The warning an out of shape `had` gets when resized to `required`, or "" when none is due:
// only an out with elements whose shape differs is warned about.
std::string resize_warning(const Shape& had, const Shape& required);

}  // namespace bc
