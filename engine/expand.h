// Expand geometry (LibTorch's inferExpandGeometry): the sizes and strides of a tensor viewed at a larger shape
// without copying. Stretched dims and new leading dims get stride 0; -1 in the target keeps an existing size.
#pragma once

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

struct Geometry {
  Shape sizes;
  Shape strides;
};

// True when `shape` broadcasts to exactly `target` (at::is_expandable_to): rank not larger, and each aligned
// size equal or 1. -1 is not special here.
bool is_expandable_to(const Shape& shape, const Shape& target);

// The view of a tensor with `sizes` and `strides` expanded to `target`, or LibTorch 1.13's error.
Result<Geometry> expand_geometry(const Shape& sizes, const Shape& strides, const Shape& target);

// The shape `expand` gives a contiguous tensor of `sizes`, or the error.
Result<Shape> expand_shape(const Shape& sizes, const Shape& target);

}  // namespace bc
