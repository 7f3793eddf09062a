// Differentiable ops on vars: each forward (the tensor op of engine/elementwise.h) next to its backward formula,
// written with the same primitives, in the same order and saving the same tensors as LibTorch 1.13's
// derivatives.yaml, so that values round alike and a tensor modified in place after being saved is caught alike.
// Gradients leave a formula in the broadcast shape; backward() (engine/autograd.h) sums them to each input's shape.
#pragma once

#include <string>
#include <vector>

#include "engine/autograd.h"
#include "engine/elementwise.h"

namespace bc::ag {

// a op b. Comparisons are not differentiable: their result never requires grad.
Result<Var> binary(Op op, const Var& a, const Var& b, Scalar alpha = {});

// self op= other. Refused first, as LibTorch's check_inplace does, when grad is needed and self is a leaf that
// requires grad, or a view of one (leaf_inplace); otherwise the tensor op's own checks; then self's history is
// rebased onto the new node.
Result<Var> binary_(Op op, const Var& self, const Var& other, Scalar alpha = {});

// op(t) for a pointwise unary op (neg, abs, ...): the tensor op, and the rule's backward over what it saves (self
// or the result, as derivatives.yaml reads them).
Result<Var> unary(Op op, const Var& t);
// self.fill_(value) / self.zero_() (engine/fill.h), refused first as binary_ is when self requires grad and is a
// leaf or a view of one; the node's gradient for self is zeros (FillRule::backward).
Result<Var> fill_(Op op, const Var& self, Scalar value);

Result<Var> lerp(const Var& start, const Var& end, const Var& weight);
Result<Var> lerp_(const Var& self, const Var& end, const Var& weight);
Result<Var> where(const Var& cond, const Var& a, const Var& b);

// Sum over `dims` (all dims when empty: SumBackward0), keeping them as size 1 when keepdim.
Result<Var> sum(const Var& t, const std::vector<int64_t>& dims = {}, bool keepdim = false);

// The 2-norm of a - b (a and b broadcast): a 0-d tensor of a - b's dtype, floating only. LibTorch 1.13's dist is
// norm(a - b, 2), so sub's checks come first; its backward (DistBackward0) is norm_backward over a - b.
Result<Var> dist(const Var& a, const Var& b);

// An expanded view (ExpandBackward0: the gradient is summed back with sum_to).
Result<Var> expand(const Var& t, const Shape& shape);

// `view` (a view of base's storage, e.g. a transpose, a slice or an as_strided view) as a differentiable view of
// `base` (contiguous): its gradient is scattered back into base's elements, adding where elements repeat. `name`
// is the node LibTorch would record (TransposeBackward0, SliceBackward0, ExpandBackward0, AsStridedBackward0).
Result<Var> view_of(const Var& base, const Tensor& view, const std::string& name);

}  // namespace bc::ag
