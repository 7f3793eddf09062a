#include "oracles/document_operands.h"

#include <algorithm>

#include "harness/operands.h"

namespace bc::documents {

Operands operands_of(const Case& c, DType dtype) {
  Operands o{c.shapes, {}, {}, dtype};
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    o.values.push_back(seen_values(plans, k).to_doubles());
    o.layouts.push_back(plans[k].layout);
  }
  return o;
}

// The one floating dtype of operands [first, end), or nullopt ([D11]: no document states type promotion).
std::optional<DType> shared_floating_dtype(const Case& c, size_t first) {
  const DType t = dtype_of(c, first);
  if (t != DType::float32 && t != DType::float64) return std::nullopt;
  for (size_t k = first; k < c.shapes.size(); ++k)
    if (dtype_of(c, k) != t) return std::nullopt;
  return t;
}

bool wants_grad(const Case& c, size_t k) { return k < c.requires_grad.size() && c.requires_grad[k]; }

// [D11] In place, the documents state the shape rule only: nothing about self's elements sharing memory with each

const char* const kMemoryRules = "in-place rules for self-overlapping or shared memory";
bool inplace_memory_undocumented(const Operands& o) {
  if (o.layouts[0] == Layout::expanded) return true;
  return std::any_of(o.layouts.begin(), o.layouts.end(), [](Layout l) { return l == Layout::overlapping; });
}

}  // namespace bc::documents
