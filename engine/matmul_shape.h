// The matmul shape rule (NumPy semantics; seeds 002 and 003): a 1-D left operand is promoted to a row and a 1-D
// right operand to a column, and the added dim is removed from the result; the last two dims are matrices whose
// inner sizes must agree; all other (batch) dims broadcast. Error texts follow the path LibTorch 1.13's
// at::matmul takes for each rank pair (see docs/notes/matmul-dispatch.md).
#pragma once

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

Result<Shape> matmul_shape(const Shape& a, const Shape& b);

}  // namespace bc
