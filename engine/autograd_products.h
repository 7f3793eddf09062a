// The products and fused products on vars. mm, bmm, mv, dot and the fused ops are primitives here, each forward
// (engine/products.h) beside LibTorch 1.13's backward formulas (the fused ops: c gets beta * grad, the product's
// operands alpha times the product's gradients); outer and matmul are LibTorch's composites, built from these
// primitives and reshape/transpose/expand, so that their gradients come from the primitives' (matmul's batch
// broadcasting is reduced by expand's backward). matmul dispatches on the ranks (and, as LibTorch's should_fold
// does, on one operand's strides) exactly as at::matmul does (docs/notes/matmul-dispatch.md).
#pragma once

#include "engine/autograd.h"
#include "engine/products.h"

namespace bc::ag {

// a @ b for matmul, mm, bmm, mv, dot and outer.
Result<Var> product(ProductOp op, const Var& a, const Var& b);

// beta * c + alpha * product(a, b), and in place into c (refused first when grad is needed and c is a leaf that
// requires grad, or a view of one).
Result<Var> fused(ProductOp op, const Var& c, const Var& a, const Var& b, Scalar beta = {}, Scalar alpha = {});
Result<Var> fused_(ProductOp op, const Var& c, const Var& a, const Var& b, Scalar beta = {}, Scalar alpha = {});

// The views the composites are made of: the same elements at another shape (ViewBackward0), two dims swapped
// (TransposeBackward0).
Result<Var> reshape(const Var& t, const Shape& shape);
Result<Var> transpose(const Var& t, int64_t dim0, int64_t dim1);

}  // namespace bc::ag
