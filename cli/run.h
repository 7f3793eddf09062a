// The run driver behind `broadcheck run` and `broadcheck replay`: replay corpus cases first, then drive every
// property with generated cases (round robin, so a time budget is shared fairly), judge each on all oracles,
// shrink the first case of each new signature to a minimal case (--shrink), stream results.jsonl, and write
// summary.json, junit.xml and report.html. SIGINT/SIGTERM stop it cleanly with everything found so far. Returns
// the process exit code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck/Random.h>

#include "harness/run_record.h"
#include "oracles/oracle.h"
#include "reports/results_filter.h"

namespace bc {

// Exit codes, shared by every command.
constexpr int kExitOk = 0;          // nothing new disagrees
constexpr int kExitFindings = 1;    // a new discrepancy, or a failed expectation
constexpr int kExitBadInput = 2;    // bad usage, or an input file or line that could not be used
constexpr int kExitInternal = 3;    // broadcheck itself failed
// An interrupted run with no new finding exits 128 + the signal (130 for SIGINT, 143 for SIGTERM).

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
  std::vector<std::string> input_errors;         // found while reading the command line (a missing --corpus-dir)
  bool strict_zeros = false;                     // --strict-zeros: a difference in the sign of zero fails a case
  bool fail_on_stale = false;                    // --fail-on-stale: a stale declaration fails the run
  std::string replay_prefix = "broadcheck replay";  // how a finding's replay commands start (cli/replay_commands.h)

  bool takes_op(const std::string& op) const {
    return ops.empty() || std::find(ops.begin(), ops.end(), op) != ops.end();
  }
};

// The input error of a run in which no case ran: such a run proves nothing and must not pass.
inline constexpr const char* kNothingChecked =
    "nothing was checked: no corpus case and no generated case ran (an empty corpus, --no-replay, --cases 0 or "
    "--op leave nothing to run); a run must check at least one case to pass";

// The RapidCheck random source of case `index` of `property` under `seed`: a 256-bit key of those three, so each
// case is generated independently of the others (shards need no shared state; a case needs no history).
rc::Random case_random(uint64_t seed, const std::string& property, long index);

// "bc1/SEED/PROPERTY/INDEX/PATH": regenerates a case with the same RapidCheck Random key and size, then follows
// the shrink path (dot-separated shrink indices, "-" for none). Parse errors throw CaseError.
std::string reproduce_token(uint64_t seed, const std::string& property, long index, const std::vector<std::size_t>& path);
Case case_from_reproduce_token(const std::string& token);

int run_conformance(const RunOptions& options);

// The summary of a run with these options before any case ran: command, arguments, seed, shard, start time.
RunSummary summary_of_no_case(const RunOptions& options);

class OutputFolder;  // cli/outputs.h

// The end of every run (one process, the jobs' merge, `broadcheck merge`): the reports into `outputs`' staging
// folder and moved into place, summary.md appended to the file $GITHUB_STEP_SUMMARY names (not by a job; a file
// that cannot be appended to is a warning), new findings appended to options.save, the verdict printed (not by a
// job). Returns the run's exit code, or 2 when the findings cannot be saved. When the reports cannot be written, or
// `unwritten` says why results.jsonl could not be (a full disk), no report is published: the staging folder is
// removed, the verdict and the reason (the system's: "No space left on device") go to the console, and it returns
// 2 (3 after an internal error).
int publish_run(const RunSummary& summary, OutputFolder& outputs, const RunOptions& options,
                const std::string& unwritten = "");

// Writes summary.json, summary.md, junit.xml and report.html for a finished summary into `dir` (results.jsonl is
// streamed). `out` is where they end up (--out; `dir` may be its staging folder): summary.md names the report there.
void write_reports(const RunSummary& summary, const std::string& dir, const std::string& out);

// Exit code for a summary: input errors 2, new findings (or, under --fail-on-stale, stale declarations) 1,
// interrupted 128 + signal, else 0.
int exit_code_for(const RunSummary& summary, int signal_number);

}  // namespace bc
