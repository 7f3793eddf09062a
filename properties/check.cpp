#include "properties/check.h"

#include "properties/registry.h"

namespace bc {

CaseRecord evaluate(const std::string& property, const Case& c, std::vector<std::unique_ptr<Oracle>>& oracles,
                    const std::vector<Declaration>& declarations) {
  CaseRecord r{property, c, {}, {}};
  const Property* p = find_property(property);
  if (p && p->check == Check::algebra) {
    r.outcomes.emplace_back(oracles.front()->name(), oracles.front()->run(c));
    const std::string broken = broadcast_algebra_violation(c);
    if (!broken.empty()) {
      r.judgement.verdict = Verdict::discrepancy;
      r.judgement.difference = "algebra";
      r.judgement.odd_ones = {"engine"};
      r.judgement.attribution = broken;
      r.judgement.signature = property + " | broadcast_shapes | algebra: " + broken.substr(0, broken.find(':'));
    }
    return r;
  }
  for (auto& o : oracles) r.outcomes.emplace_back(o->name(), o->run(c));
  r.judgement = judge(property, c, r.outcomes, declarations);
  return r;
}

Shrunk shrink(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget) {
  Shrunk out{first, 0, 0};
  rc::Shrinkable<Case> current = start;
  bool moved = true;
  while (moved && out.evaluations < budget) {
    moved = false;
    auto shrinks = current.shrinks();
    while (out.evaluations < budget) {
      auto next = shrinks.next();
      if (!next) break;
      ++out.evaluations;
      CaseRecord r = evaluate(next->value());
      if (r.judgement.signature == first.judgement.signature) {
        current = *next;
        out.minimal = r;
        ++out.steps;
        moved = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace bc
