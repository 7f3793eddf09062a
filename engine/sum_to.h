// The sum_to plan: which axes of a broadcast result must be summed so that a gradient returns to an input's shape
// (seed 000: validate_outputs -> reduce_grad -> at::sum_to). Leading extra axes are dropped, stretched axes are
// summed with keepdim. Unlike at::sum_to, the precondition is checked (see docs/notes/sum-to-precondition.md).
#pragma once

#include <vector>

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

struct SumToPlan {
  Shape from;                  // the broadcast (gradient) shape
  Shape to;                    // the input's shape
  std::vector<int64_t> axes;   // axes of `from` to sum, ascending
  int64_t leading = 0;         // how many of them are leading axes that disappear
};

// The plan, or a sum_to error when `to` does not expand to `from`.
Result<SumToPlan> plan_sum_to(const Shape& from, const Shape& to);

// Shape after the plan: `to` itself; kept as a function so properties can check it independently.
Shape apply_plan_shape(const SumToPlan& plan);

}  // namespace bc
