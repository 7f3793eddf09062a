#include "engine/sum_to.h"

#include "engine/error_texts.h"
#include "engine/expand.h"
#include "engine/sum_to_kernel.h"

namespace bc {

Result<SumToPlan> plan_sum_to(const Shape& from, const Shape& to) {
  if (!is_expandable_to(to, from))
    return make_error(ErrorText::sum_to_not_expandable, {to, from});
  SumToPlan plan{from, to, {}, static_cast<int64_t>(from.size() - to.size())};
  for (int64_t i = 0; i < static_cast<int64_t>(from.size()); ++i) {
    const bool leading = i < plan.leading;
    if (leading || (to[i - plan.leading] == 1 && from[i] != 1)) plan.axes.push_back(i);
  }
  return plan;
}

Shape apply_plan_shape(const SumToPlan& plan) {
  Shape kept;
  size_t next_axis = 0;
  for (int64_t i = 0; i < static_cast<int64_t>(plan.from.size()); ++i) {
    const bool summed = next_axis < plan.axes.size() && plan.axes[next_axis] == i;
    if (summed) ++next_axis;
    if (i < plan.leading) continue;  // dropped
    kept.push_back(summed ? 1 : plan.from[i]);
  }
  return kept;
}

Result<Tensor> sum_to(const Tensor& grad, const Shape& to) {
  Result<SumToPlan> plan = plan_sum_to(grad.sizes(), to);
  if (!plan.ok()) return plan.error();
  if (category(grad.dtype()) != Category::floating)
    return make_error(ErrorText::sum_to_not_floating, {to_string(grad.dtype())});
  // Storage keeps float32 values as doubles (engine/tensor.h), so the double kernel serves both dtypes and
  // from_values rounds each float32 result once.
  const std::vector<double> values = grad.to_doubles();  // row-major, whatever grad's strides
  std::vector<double> out(static_cast<size_t>(numel(to)));
  sum_to_kernel(values.data(), grad.sizes(), to, out.data());
  return Tensor::from_values(to, grad.dtype(), out);
}

}  // namespace bc
