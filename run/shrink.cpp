#include "run/shrink.h"

#include "properties/case_shrinks.h"

namespace bc {

Shrunk shrink(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget) {
  Shrunk out{first, 0, 0, {}};
  rc::Shrinkable<Case> current = start;
  bool moved = true;
  while (moved && out.evaluations < budget) {
    moved = false;
    auto shrinks = current.shrinks();
    for (std::size_t index = 0; out.evaluations < budget; ++index) {
      auto next = shrinks.next();
      if (!next) break;
      ++out.evaluations;
      CaseRecord r = evaluate(next->value());
      // The same signature and the same verdict: an undeclared discrepancy must not shrink into a smaller case that
      // a declaration happens to explain (nor a known one into an undeclared one).
      if (r.judgement.signature == first.judgement.signature && r.judgement.verdict == first.judgement.verdict) {
        current = *next;
        out.minimal = r;
        ++out.steps;
        out.path.push_back(index);
        moved = true;
        break;
      }
    }
  }
  return out;
}

Shrunk shrink_fully(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget) {
  Shrunk out = shrink(start, first, evaluate, budget);
  const Shrunk more = shrink(shrinkable_case(out.minimal.c), out.minimal, evaluate, budget - out.evaluations);
  out.minimal = more.minimal;
  out.steps += more.steps;
  out.evaluations += more.evaluations;
  out.case_path = more.path;
  return out;
}

std::optional<Case> follow_shrink_path(const rc::Shrinkable<Case>& start, const std::vector<std::size_t>& path) {
  rc::Shrinkable<Case> current = start;
  for (std::size_t index : path) {
    auto shrinks = current.shrinks();
    std::optional<rc::Shrinkable<Case>> chosen;
    for (std::size_t i = 0; i <= index; ++i) {
      auto next = shrinks.next();
      if (!next) return std::nullopt;
      if (i == index) chosen = *next;
    }
    current = *chosen;
  }
  return current.value();
}

}  // namespace bc
