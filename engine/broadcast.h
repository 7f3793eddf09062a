// The broadcasting shape rule (seeds 000-003): right-align the shapes, a missing dim counts as 1, a size-1 dim
// stretches to the other size (0 included), any other mismatch is an error with LibTorch 1.13's text.
#pragma once

#include <vector>

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

// LibTorch's infer_size: `a` is the left operand, `b` the right one; the message names them in that order and
// counts `dimension` in the result's (left-padded) coordinates. Dims are checked innermost first, so with several
// conflicts the message names the innermost one ([2, 3] against [3, 2]: dimension 1, sizes 3 and 2).
Result<Shape> broadcast_shapes(const Shape& a, const Shape& b);

// Any number of shapes, folded left to right as TensorIterator and broadcast_tensors do; no shapes gives [].
Result<Shape> broadcast_shapes(const std::vector<Shape>& shapes);

// The op broadcast_shapes, as LibTorch answers it with a tensor of each shape (broadcast_tensors): a negative size is
// refused when its tensor is made, shapes in order, before any broadcasting; then the shapes are broadcast as above.
Result<Shape> broadcast_sizes(const std::vector<Shape>& shapes);

}  // namespace bc
