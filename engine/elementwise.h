// Elementwise ops on tensors, out-of-place and in-place, with broadcasting by stride-0 views (never by copying
// operands) and PyTorch's type promotion. Each op is one scalar function (elementwise.cpp, the table at the top);
// the in-place rules are checked in LibTorch's order: memory overlap, then shapes, then the result's dtype.
#pragma once

#include <optional>
#include <string>

#include "engine/scalar.h"
#include "engine/tensor.h"

namespace bc {

enum class BinaryOp { add, sub, mul, div, pow, atan2, fmod, remainder, maximum, minimum, eq, ne, lt, le, gt, ge };

std::optional<BinaryOp> binary_op_from_name(const std::string& name);  // "add", ..., "ge"
const char* to_string(BinaryOp op);
bool is_comparison(BinaryOp op);


// a op b (alpha scales b for add and sub).
Result<Tensor> binary(BinaryOp op, const Tensor& a, const Tensor& b, Scalar alpha = {});

// self op= other, in place; returns self. Checks in LibTorch's order: sub's bool check, then internal_overlap,
// partial_overlap, broadcast, inplace_shape, dtype_cast, and last the alpha check.
Result<Tensor> binary_(BinaryOp op, Tensor& self, const Tensor& other, Scalar alpha = {});

// start + weight * (end - start), all three broadcast; floating dtypes, all the same.
Result<Tensor> lerp(const Tensor& start, const Tensor& end, const Tensor& weight);
Result<Tensor> lerp_(Tensor& self, const Tensor& end, const Tensor& weight);

// cond ? a : b elementwise; cond is bool; the result has a and b's promoted dtype.
Result<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace bc
