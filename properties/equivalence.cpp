#include "properties/equivalence.h"

#include "harness/tolerance.h"

namespace bc {

std::optional<Case> unfused_twin(const Case& c) {
  const std::optional<Op> unfused = unfused_form(c.op);
  if (!unfused) return std::nullopt;
  Case twin = c;
  twin.op = *unfused;
  return twin;
}

std::optional<EquivalenceDeparture> equivalence_departure(const Case& c, const Outcome& fused, const Outcome& unfused) {
  const std::string both = "fused: " + summarize(fused) + "; unfused: " + summarize(unfused);
  const std::string kind = first_difference(fused, unfused);
  if (!kind.empty()) return EquivalenceDeparture{kind, both};
  if (fused.status != Status::ok) return std::nullopt;
  const DType dtype = dtype_from_string(fused.dtype).value_or(DType::float64);
  if (c.values)
    if (auto m = compare_values(fused.values, unfused.values, dtype, fused.shape))
      return EquivalenceDeparture{"values", "unfused against fused: " + m->text};
  if (summarize_grads(fused) != summarize_grads(unfused))
    return EquivalenceDeparture{"grads", "fused: " + summarize_grads(fused) + "; unfused: " + summarize_grads(unfused)};
  std::vector<DType> dtypes;
  for (size_t k = 0; k < c.shapes.size(); ++k) dtypes.push_back(dtype_of(c, k));
  for (size_t k = 0; k < fused.grads.size() && k < unfused.grads.size(); ++k) {
    if (!fused.grads[k] || !unfused.grads[k]) continue;
    const int64_t summed = numel(c.shapes[k]) > 0 ? numel(fused.shape) / numel(c.shapes[k]) : 1;
    if (auto m = compare_values(fused.grads[k]->values, unfused.grads[k]->values, gradient_tolerance(dtypes, summed),
                                c.shapes[k]))
      return EquivalenceDeparture{"grad values", "operand " + std::to_string(k) + ", unfused against fused: " + m->text};
  }
  return std::nullopt;
}

}  // namespace bc
