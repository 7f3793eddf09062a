// Running a new finding's minimal case again before it is reported as new: kReruns more times, each in a fresh
// set of oracles (new isolated workers and adapter processes, as cli/builtin_implementations.h makes them), and
// comparing the outcomes with the first run's (harness/reproduction.h).
#pragma once

#include <string>
#include <vector>

#include "harness/known_divergence.h"
#include "harness/reproduction.h"
#include "harness/run_record.h"

namespace bc {

// Three re-runs: with the first run that makes four, enough for a crash that comes one time in two to show up
// with probability 15/16, at the cost of three worker starts per new signature (new findings are rare; a run
// with none re-runs nothing).
inline constexpr int kReruns = 3;

// `first` is the minimal case's record from the run that found it.
Reproduction rerun_finding(const CaseRecord& first, const std::vector<Declaration>& declarations, bool isolate,
                           int timeout_ms);

}  // namespace bc
