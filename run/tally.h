// What a run counts of every case it judged, into its summary: cases per property and op, the scoreboard, coverage,
// the statuses that are neither success nor failure, and for each declaration the cases in its scope that it could
// explain and those it did (its staleness: harness/run_record.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/known_divergence.h"
#include "harness/run_record.h"

namespace bc {

class RunTally {
 public:
  explicit RunTally(RunSummary& summary) : summary_(summary) {}
  // The run's declarations, each counted from now on (summary.declarations gets one use each).
  void use_declarations(const std::vector<Declaration>& declarations);
  void count(const CaseRecord& r);

 private:
  void count_status(size_t k, const std::pair<std::string, Outcome>& named);
  void count_declarations(const CaseRecord& r);
  const std::vector<size_t>& declarations_for(Op op);

  RunSummary& summary_;
  std::map<Op, std::vector<size_t>> declarations_for_op_;
  std::vector<std::string> named_;  // the implementations the declarations name, each once
  std::vector<size_t> names_;       // per declaration, its implementation's place in named_
  std::vector<signed char> ran_;    // per name in named_, for the case being counted: ran it, not, -1 not asked yet
  struct StatusSlot {
    std::string name;
    Status status = Status::ok;
    long* count = nullptr;  // into summary_.statuses (a map's values stay put)
  };
  std::vector<StatusSlot> status_slots_;
};

}  // namespace bc
