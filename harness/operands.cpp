#include "harness/operands.h"

#include "engine/overlap.h"
#include "harness/operand_views.h"
#include "harness/value_classes.h"

namespace bc {

Values base_values(const Case& c, size_t operand, DType dtype, int64_t count) {
  if (!c.values || !c.values->data.empty()) return converted(std::vector<double>(static_cast<size_t>(count), 0.0), dtype);
  return class_values(c.values->value_class.value_or(ValueClass::plain), dtype,
                      c.values->seed * 0x100000001b3ull + operand + 1, c.values->special, count);
}

Values upstream_values(const Case& c, DType dtype, int64_t count) {
  if (!c.grad_seed) return converted(std::vector<double>(static_cast<size_t>(count), 1.0), dtype);
  return class_values(ValueClass::plain, dtype, *c.grad_seed * 0x100000001b3ull + 0x5eed, false, count);
}

std::vector<OperandPlan> plan_operands(const Case& c) {
  std::vector<OperandPlan> plans = plan_views(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    OperandPlan& p = plans[k];
    if (p.number) {  // the number itself, exactly, in its kind's dtype
      p.base_values = p.number->kind == Number::Kind::floating ? Values(std::vector<double>{p.number->f})
                                                              : Values(std::vector<int64_t>{p.number->i});
      continue;
    }
    if (p.views_operand < 0) p.base_values = base_values(c, k, p.dtype, numel(p.base_shape));
    if (c.values && k < c.values->data.size() && p.views_operand < 0) {
      // Given values are what the op sees: written in the dtype through the view into the (zeroed) base.
      const Values given = converted(c.values->data[k], p.dtype);
      const std::vector<int64_t> at = element_offsets(View{p.offset, p.shape, p.strides});
      for (size_t e = 0; e < at.size(); ++e) {
        const auto into = static_cast<size_t>(at[e]);
        if (given.integers()) p.base_values.ints()[into] = given.ints()[e];
        else p.base_values.floats()[into] = given.floats()[e];
      }
    }
  }
  return plans;
}

Values view_values(const OperandPlan& plan, const Values& storage) {
  Values out = storage.integers() ? Values(std::vector<int64_t>{}) : Values();
  for (int64_t at : element_offsets(View{plan.offset, plan.shape, plan.strides})) {
    if (storage.integers()) out.push_back(storage.ints()[static_cast<size_t>(at)]);
    else out.push_back(storage.floats()[static_cast<size_t>(at)]);
  }
  return out;
}

Values seen_values(const std::vector<OperandPlan>& plans, size_t k) {
  const OperandPlan& p = plans[k];
  return view_values(p, plans[p.views_operand >= 0 ? static_cast<size_t>(p.views_operand) : k].base_values);
}

}  // namespace bc
