// Shapes as small integer vectors, and the one way broadcheck prints them.
// Contract: a Shape is a list of sizes, outermost first; rank 0 is the empty list and size 0 is an ordinary size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bc {

using Shape = std::vector<int64_t>;

// LibTorch's IntArrayRef printing: "[1, 3, 1]", "[]" for rank 0.
std::string format_shape(const Shape& shape);

// Number of elements (1 for rank 0, 0 as soon as one size is 0).
int64_t numel(const Shape& shape);

// Row-major (contiguous) strides for a shape, in elements.
Shape contiguous_strides(const Shape& shape);

}  // namespace bc
