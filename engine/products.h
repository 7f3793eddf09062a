// Products (seeds 002, 003): the strict mm, bmm, mv, dot and outer, which broadcast nothing, and the fused
// beta * c + alpha * product(a, b) ops addmm, addmv, addr, baddbmm and addbmm, where only c broadcasts (seed 003's
// table); in place, c is written and keeps its shape. Each op makes LibTorch 1.13's checks in LibTorch's order with
// its kinds and texts (docs/notes/products.md); when beta is 0, c's values are ignored (NaN and inf in c do not
// propagate), as LibTorch documents. matmul and outer are composites of these (engine/autograd_products.h).
#pragma once

#include <optional>
#include <string>

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

enum class ProductOp { matmul, mm, bmm, mv, dot, outer, addmm, addmv, addr, baddbmm, addbmm };
std::optional<ProductOp> product_op_from_name(const std::string& name);  // "matmul", ..., "addbmm" (no '_')
const char* to_string(ProductOp op);
bool is_fused(ProductOp op);  // addmm, addmv, addr, baddbmm, addbmm

// a @ b for mm, bmm, mv, dot and outer (matmul: engine/autograd_products.h).
Result<Tensor> product(ProductOp op, const Tensor& a, const Tensor& b);

// beta * c + alpha * product(a, b) for the fused ops (addbmm sums the batch's products), c broadcast to the
// product's shape; the in-place form writes c, whose shape must already be the product's.
Result<Tensor> fused(ProductOp op, const Tensor& c, const Tensor& a, const Tensor& b, Scalar beta = {},
                     Scalar alpha = {});
Result<Tensor> fused_(ProductOp op, Tensor& c, const Tensor& a, const Tensor& b, Scalar beta = {},
                      Scalar alpha = {});

}  // namespace bc
