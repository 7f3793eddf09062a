// The sum_to plan: which axes of a broadcast result must be summed so that a gradient returns to an input's shape
// (seed 000: validate_outputs -> reduce_grad -> at::sum_to). Leading extra axes are dropped, stretched axes are
// summed with keepdim. Unlike at::sum_to, the precondition is checked (see docs/notes/sum-to-precondition.md).
// `sum_to` on a Tensor carries the plan out with the reduction kernel (engine/sum_to_kernel.h).
#pragma once

#include <vector>

#include "engine/error.h"
#include "engine/shape.h"
#include "engine/tensor.h"

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

// A gradient summed to `to` (autograd's reduce_grad): a new contiguous tensor of shape `to` and grad's dtype, each
// value summed in double by the kernel and rounded once to float32 when grad is float32. grad may be any view
// (expanded, strided). Errors: plan_sum_to's sum_to error when `to` does not expand to grad's shape;
// invalid_argument when grad is not float32 or float64 (gradients are floating).
Result<Tensor> sum_to(const Tensor& grad, const Shape& to);

}  // namespace bc
