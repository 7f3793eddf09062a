// The in-place shape rule (seed 003, "In-place semantics"): an in-place op may broadcast its other operands to
// self, but never self to a larger shape. LibTorch 1.13 first broadcasts all operands (self as tensor a), then
// checks the result against self.
#pragma once

#include <vector>

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

// Self's shape when `others` broadcast to it, or the broadcast error, or the inplace_shape error.
Result<Shape> inplace_shape(const Shape& self, const std::vector<Shape>& others);

}  // namespace bc
