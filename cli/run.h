// The run driver behind `broadcheck run` and `broadcheck replay`: replay corpus cases first, then drive every
// property with generated cases, judge each on all oracles, shrink each new signature once to a minimal case,
// stream results.jsonl, and write summary.json, junit.xml and report.html. Returns the process exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/run_record.h"
#include "oracles/oracle.h"

namespace bc {

// Exit codes, shared by every command.
constexpr int kExitOk = 0;          // nothing new disagrees
constexpr int kExitFindings = 1;    // a new discrepancy, or a failed expectation
constexpr int kExitBadInput = 2;    // bad usage, or an input file or line that could not be used
constexpr int kExitInternal = 3;    // broadcheck itself failed

struct RunOptions {
  std::string command = "run";                  // "run" or "replay"
  std::vector<std::string> arguments;           // the command line as given, for the report
  uint64_t seed = 1;
  long cases = 200;                              // generated cases per property
  std::string out = "broadcheck-out";
  std::vector<std::string> corpus_files;         // replayed before the random search
  std::vector<std::string> inline_cases;         // --case JSON texts
  std::string declarations;                      // known_divergences.jsonl ("" for none)
  std::vector<std::string> properties;           // empty: all
  bool random = true;                            // false for replay
  int max_shrink_evaluations = 4000;             // per new signature
  bool quiet = false;
};

// The oracles in their fixed order: engine, torch, xtensor.
std::vector<std::unique_ptr<Oracle>> make_all_oracles();

int run_conformance(const RunOptions& options);

}  // namespace bc
