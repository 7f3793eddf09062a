// What a run is asked to do (`broadcheck run` and `broadcheck replay`, as the command line and broadcheck.json give
// it): the seed and counts, the inputs, the shard, shrinking, isolation, progress and results, and the flags that
// change a verdict.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/op_table.h"
#include "reports/results_filter.h"

namespace bc {

struct Shard {
  long index = 0;  // 0-based
  long count = 1;
  bool takes(long seq) const { return seq % count == index; }
  std::string text() const { return count > 1 ? std::to_string(index) + "/" + std::to_string(count) : ""; }
};

enum class Progress { automatic, quiet };

// Which findings a run shrinks (--shrink). A known finding is already explained by its declaration, which carries
// a case of its own, and shrinking the few hundred known signatures of a default run was about a quarter of its
// time (bench/README.md), so by default only new findings are shrunk; `all` shrinks known ones too.
enum class Shrinking { new_findings, all, none };
const char* to_string(Shrinking s);                        // "new", "all", "none"
std::optional<Shrinking> shrinking_from_string(const std::string& text);

struct RunOptions {
  std::string command = "run";                  // "run" or "replay"
  std::vector<std::string> arguments;           // the command line as given, for the report
  uint64_t seed = 1;
  std::optional<long> cases = 200;              // generated cases per property; nullopt: until the time budget
  double time_budget = 0;                       // seconds for the whole run; 0: none
  std::string out = "broadcheck-out";
  std::vector<std::string> corpus_files;         // replayed before the random search
  std::vector<std::string> inline_cases;         // --case JSON texts
  std::vector<std::string> reproduce;            // --reproduce tokens
  std::string case_property;                     // replay --property: the property whose check judges --case cases
  std::string declarations;                      // known_divergences.jsonl ("" for none)
  std::vector<std::string> properties;           // empty: all
  std::string save;                              // --save FILE: append new minimal cases in corpus format
  Shard shard;
  bool random = true;                            // false for replay
  int max_shrink_evaluations = 4000;             // per shrunk signature
  Shrinking shrinking = Shrinking::new_findings;  // --shrink: which findings are shrunk
  bool isolate = true;                           // run LibTorch in a crash-isolated worker
  int timeout_ms = 10000;                        // a case LibTorch has not answered by then is a timeout
  Progress progress = Progress::automatic;
  ResultsMode results = ResultsMode::findings;  // --results: which cases get a line in results.jsonl
  bool job = false;                              // one job of run_jobs (cli/jobs.h): no verdict or input errors on
                                                 // the console, the parent prints them for the whole run
  int unwritten_fd = -1;                         // a job's pipe to its parent: why its outputs could not be written
  std::vector<std::string> ops;                  // --op: only cases of these ops run (empty: every op)
  std::vector<Op> op_filter;                     // the --op names, parsed (cli/main.cpp's check_ops)
  std::vector<std::string> input_errors;         // found while reading the command line (a missing --corpus-dir)
  bool strict_zeros = false;                     // --strict-zeros: a difference in the sign of zero fails a case
  bool fail_on_stale = false;                    // --fail-on-stale: a stale declaration fails the run
  bool fail_on_missing_coverage = false;         // --fail-on-missing-coverage: a required class never drawn fails it
  std::string replay_prefix = "broadcheck replay";  // how a finding's replay commands start (cli/replay_prefix.h)

  bool takes_op(Op op) const {
    return op_filter.empty() || std::find(op_filter.begin(), op_filter.end(), op) != op_filter.end();
  }
};

}  // namespace bc
