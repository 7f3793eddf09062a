// Elementwise ops on tensors, out-of-place and in-place, with broadcasting by stride-0 views (never by copying
// operands) and PyTorch's type promotion. Each binary op is its op table entry's scalar function (engine/op_table.h);
// the in-place rules are checked in LibTorch's order: memory overlap, then shapes, then the result's dtype.
#pragma once

#include <optional>
#include <string>

#include "engine/op_table.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

// a op b (alpha scales b for add and sub); op has a BinaryRule (an in-place op's rule is its out-of-place form's).
Result<Tensor> binary(Op op, const Tensor& a, const Tensor& b, Scalar alpha = {});

// self op= other, in place; returns self. Checks in LibTorch's order: sub's bool check, then internal_overlap,
// partial_overlap, broadcast, inplace_shape, dtype_cast, and last the alpha check.
Result<Tensor> binary_(Op op, Tensor& self, const Tensor& other, Scalar alpha = {});

// a op b written into an out= tensor of dtype `out` (its shape is engine/out_form.h's business): the result type
// must cast to `out` (checked after broadcasting, before the kernel and alpha, as in place); the values are computed
// in the result's compute type and converted to `out`.
Result<Tensor> binary_out(Op op, const Tensor& a, const Tensor& b, Scalar alpha, DType out);

// op(t) elementwise, for an op with a UnaryRule: the result has t's shape and dtype, or the default float dtype
// for an integer or bool input of an op that computes in floating point (sqrt, exp, log, reciprocal); bool
// inputs that LibTorch refuses (neg, abs) give its message.
Result<Tensor> unary(Op op, const Tensor& t);

// start + weight * (end - start), all three broadcast; floating dtypes, all the same.
Result<Tensor> lerp(const Tensor& start, const Tensor& end, const Tensor& weight);
Result<Tensor> lerp_(Tensor& self, const Tensor& end, const Tensor& weight);

// cond ? a : b elementwise; cond is bool; the result has a and b's promoted dtype.
Result<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace bc
