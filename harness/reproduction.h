// Whether a finding reproduces: the outcomes of its minimal case in the run that found it and in re-runs in fresh
// workers, compared per implementation. A crash or timeout that does not recur in every run makes it flaky; any
// other outcome that changes between runs (values, gradients, status) makes it nondeterministic.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/judge.h"

namespace bc {

struct Reproduction {
  std::string kind;                  // "" (every run alike), "flaky" or "nondeterministic"
  int runs = 0;                      // runs compared, the first included; 0: never re-run
  std::vector<std::string> details;  // "torch crashed in 1 of 4 runs", "numpy gave 2 different results in 4 runs"
  bool stable() const { return kind.empty(); }
  friend bool operator==(const Reproduction& a, const Reproduction& b) {
    return a.kind == b.kind && a.runs == b.runs && a.details == b.details;
  }
};

// `runs[0]` is the run that found the case, the others its re-runs. An implementation missing from some run is
// compared over the runs that have it. Flaky wins over nondeterministic when both are seen.
Reproduction compare_runs(const std::vector<Outcomes>& runs);

// "flaky: torch crashed in 1 of 4 runs", or "reproduced in 4 of 4 runs", or "" when never re-run.
std::string describe(const Reproduction& r);

nlohmann::json to_json(const Reproduction& r);
Reproduction reproduction_from_json(const nlohmann::json& j);

}  // namespace bc
