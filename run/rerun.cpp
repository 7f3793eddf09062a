#include "run/rerun.h"

#include "run/evaluate.h"

namespace bc {

Reproduction Rerunner::rerun(const CaseRecord& first, const std::vector<Declaration>& declarations) {
  while (sets_.size() < static_cast<size_t>(kReruns)) sets_.push_back(make_oracles_());
  std::vector<Outcomes> runs{first.outcomes};
  for (auto& oracles : sets_) runs.push_back(evaluate(first.property, first.c, oracles, declarations).outcomes);
  return compare_runs(runs);
}

std::vector<AdapterFault> Rerunner::take_faults() {
  std::vector<AdapterFault> out;
  for (auto& oracles : sets_)
    for (auto& o : oracles)
      for (AdapterFault& f : o->take_faults()) out.push_back(std::move(f));
  return out;
}

}  // namespace bc
