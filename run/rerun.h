// Running a new finding's minimal case again before it is reported as new: kReruns more times, each on its own
// set of fresh oracles (new isolated workers and adapter processes, as the run's OracleFactory makes them, none of
// them the run's), and comparing the outcomes with the first run's (harness/reproduction.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/known_divergence.h"
#include "harness/reproduction.h"
#include "harness/run_record.h"
#include "oracles/oracle.h"

namespace bc {

// Three re-runs: with the first run that makes four, enough for a crash that comes one time in two to show up
// with probability 15/16, at the cost of three evaluations per new signature (a run with none re-runs nothing).
inline constexpr int kReruns = 3;

// A fresh set of every oracle, in the run's order (cli/builtin_implementations.h's make_all_oracles).
using OracleFactory = std::function<std::vector<std::unique_ptr<Oracle>>()>;

class Rerunner {
 public:
  explicit Rerunner(OracleFactory make_oracles) : make_oracles_(std::move(make_oracles)) {}
  // `first` is the minimal case's record from the run that found it. The sets of oracles are started at the first
  // call and kept for the next ones: a set per call cost three forks of every library worker and three adapter
  // starts per new signature, minutes for a run with hundreds of them (--no-known).
  Reproduction rerun(const CaseRecord& first, const std::vector<Declaration>& declarations);
  // The faults the re-runs' oracles found that are no case's (Oracle::take_faults).
  std::vector<AdapterFault> take_faults();

 private:
  OracleFactory make_oracles_;
  std::vector<std::vector<std::unique_ptr<Oracle>>> sets_;
};

}  // namespace bc
