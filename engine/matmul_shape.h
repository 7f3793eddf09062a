// The matmul shape rule (NumPy semantics; seeds 002 and 003): a 1-D left operand is promoted to a row and a 1-D
// right operand to a column, and the added dim is removed from the result; the last two dims are matrices whose
// inner sizes must agree; all other (batch) dims broadcast. Error texts follow the path LibTorch 1.13's
// at::matmul takes for each rank pair (see docs/notes/matmul-dispatch.md).
#pragma once

#include <cstdint>
#include <string>

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

Result<Shape> matmul_shape(const Shape& a, const Shape& b);

// LibTorch 1.13's texts for the inner-size errors of the ops matmul dispatches to (engine/products.h uses them too).
std::string mm_shape_message(int64_t rows1, int64_t cols1, int64_t rows2, int64_t cols2);  // "mat1 and mat2 ..."
// mv and addmv: "size mismatch, got <self size>, <rows>x<cols>,<length>" (mv's self is its result, of `rows`).
std::string mv_shape_message(int64_t self_size, int64_t rows, int64_t cols, int64_t length);
std::string dot_shape_message(int64_t length1, int64_t length2);                          // "inconsistent tensor ..."
std::string bmm_shape_message(int64_t batch, int64_t inner, int64_t got0, int64_t got1);  // "Expected size for ..."

}  // namespace bc
