#include "cli/rerun.h"

#include "cli/builtin_implementations.h"
#include "properties/check.h"

namespace bc {

Reproduction rerun_finding(const CaseRecord& first, const std::vector<Declaration>& declarations, bool isolate,
                           int timeout_ms) {
  std::vector<Outcomes> runs{first.outcomes};
  for (int k = 0; k < kReruns; ++k) {
    std::vector<std::unique_ptr<Oracle>> fresh = make_all_oracles(isolate, timeout_ms);
    runs.push_back(evaluate(first.property, first.c, fresh, declarations).outcomes);
  }
  return compare_runs(runs);
}

}  // namespace bc
