// Products: matmul with NumPy's semantics (1-D operands promoted, the last two dims as matrices, batch dims
// broadcast: seeds 002 and 003) dispatched as at::matmul does (docs/notes/matmul-dispatch.md), the strict mm, bmm,
// mv, dot and outer, and the fused beta * c + alpha * product(a, b), where only c broadcasts (seed 003's table).
// Errors carry LibTorch 1.13's kinds and texts.
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

// a @ b for matmul, mm, bmm, mv, dot, outer.
Result<Tensor> product(ProductOp op, const Tensor& a, const Tensor& b);
// beta * c + alpha * product(a, b) for the fused ops (addbmm sums the batch products), c broadcast to the
// product's shape; the in-place form writes c, whose shape must not change.
Result<Tensor> fused(ProductOp op, const Tensor& c, const Tensor& a, const Tensor& b, Scalar beta = {},
                     Scalar alpha = {});
Result<Tensor> fused_(ProductOp op, Tensor& c, const Tensor& a, const Tensor& b, Scalar beta = {},
                      Scalar alpha = {});

}  // namespace bc
