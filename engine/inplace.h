// The in-place shape rule (seed 003, "In-place semantics"): an in-place op may broadcast its other operands to
// self, but never self to a larger shape. LibTorch 1.13 first broadcasts all operands (self as tensor a), then
// checks the result against self.
#pragma once

#include <vector>

#include <optional>

#include "engine/error.h"
#include "engine/shape.h"
#include "engine/tensor.h"

namespace bc {

// Self's shape when `others` broadcast to it, or the broadcast error, or the inplace_shape error.
Result<Shape> inplace_shape(const Shape& self, const std::vector<Shape>& others);

// The in-place memory rules, as TensorIterator checks them before it looks at shapes: self may not have two
// elements in one location (internal_overlap), and may share locations with an input only when both are the same
// view (partial_overlap). docs/notes/overlap-rule.md.
std::optional<Error> inplace_overlap_error(const Tensor& self, const std::vector<const Tensor*>& inputs);

}  // namespace bc
