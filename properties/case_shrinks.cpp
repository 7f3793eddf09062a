#include "properties/case_shrinks.h"

#include <algorithm>

#include "harness/program.h"

namespace bc {

namespace {

// `c` without operand k, everywhere a case speaks of operands (the program's indices too).
Case without_operand(const Case& c, size_t k) {
  Case t = c;
  const auto at = [k](auto& v) {
    if (k < v.size()) v.erase(v.begin() + static_cast<std::ptrdiff_t>(k));
  };
  at(t.shapes);
  at(t.dtypes);
  at(t.layouts);
  at(t.requires_grad);
  if (t.values) at(t.values->data);
  if (t.expect) at(t.expect->grads);
  if (t.modify && static_cast<size_t>(*t.modify) > k) --*t.modify;
  t.program = drop_input(c.program, k);
  return t;
}

// A graph case's own shrinks, before its shapes': a program without one of its nodes (harness/program.h keeps it
// valid), then without an input no node reads.
std::vector<Case> graph_shrinks(const Case& c) {
  std::vector<Case> out;
  std::vector<bool> bool_inputs;
  for (size_t k = 0; k < c.shapes.size(); ++k) bool_inputs.push_back(dtype_of(c, k) == DType::bool_);
  for (size_t j = 0; j < c.program.size(); ++j)
    if (std::optional<Program> p = drop_node(c.program, j, bool_inputs)) {
      Case t = c;
      t.program = std::move(*p);
      out.push_back(std::move(t));
    }
  for (size_t k = 0; k < c.shapes.size() && c.shapes.size() > 1; ++k)
    if (!uses_input(c.program, k) && !(c.modify && static_cast<size_t>(*c.modify) == k))
      out.push_back(without_operand(c, k));
  return out;
}

}  // namespace

std::vector<Case> case_shrink_candidates(const Case& c) {
  std::vector<Case> out;
  auto keep_if_valid = [&](Case t) {
    try {
      case_from_json(to_json(t));  // the same rules as a corpus line
      out.push_back(std::move(t));
    } catch (const CaseError&) {
    }
  };
  if (c.op == Op::graph)
    for (Case& t : graph_shrinks(c)) keep_if_valid(std::move(t));
  if (entry(c.op).arity < 0 && c.op != Op::graph)
    for (size_t k = 0; k < c.shapes.size() && c.shapes.size() > 1; ++k) {
      Case t = c;
      t.shapes.erase(t.shapes.begin() + static_cast<std::ptrdiff_t>(k));
      keep_if_valid(t);
    }
  for (size_t k = 0; k < c.shapes.size(); ++k)
    for (size_t d = 0; d < c.shapes[k].size(); ++d) {
      Case t = c;
      t.shapes[k].erase(t.shapes[k].begin() + static_cast<std::ptrdiff_t>(d));
      keep_if_valid(t);
    }
  for (size_t k = 0; k < c.shapes.size(); ++k)
    for (size_t d = 0; d < c.shapes[k].size(); ++d) {
      const int64_t size = c.shapes[k][d];
      if (size == 1 || size < 0) continue;
      // Towards 1 first, then halving, then one less: small sizes, quickly, from any starting size.
      std::vector<int64_t> tried;
      for (int64_t smaller : {int64_t{1}, size / 2, size - 1}) {
        if (smaller == size || smaller < 0 || std::find(tried.begin(), tried.end(), smaller) != tried.end()) continue;
        tried.push_back(smaller);
        Case t = c;
        t.shapes[k][d] = smaller;
        keep_if_valid(t);
      }
    }
  return out;
}

rc::Shrinkable<Case> shrinkable_case(const Case& c) {
  return rc::shrinkable::shrinkRecur(c, [](const Case& x) { return rc::seq::fromContainer(case_shrink_candidates(x)); });
}

}  // namespace bc
