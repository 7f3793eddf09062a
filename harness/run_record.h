// What a run produced, as values: one CaseRecord per case run (a line of results.jsonl), one Finding per
// distinct signature (with its minimal case), and the RunSummary that the JUnit and HTML writers print.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/case.h"
#include "harness/coverage.h"
#include "harness/judge.h"
#include "harness/known_divergence.h"
#include "harness/message_catalog.h"
#include "harness/outcome.h"
#include "harness/reproduction.h"
#include "harness/scoreboard.h"

namespace bc {

struct CaseRecord {
  std::string property;  // the property that generated the case, or "corpus" for a replayed case
  Case c;
  Outcomes outcomes;
  Judgement judgement;
  long seq = -1;         // position in the unsharded run's order (corpus first); -1 outside a run
  std::string stability{};  // "flaky" or "nondeterministic" when its finding did not reproduce alike; else ""
};
// {"property", "case", "outcomes": {"engine": {...}, ...}, "verdict", "difference", "odd_ones", "attribution",
//  "known", "signature"}: the results.jsonl line (reports/README.md).
nlohmann::json to_json(const CaseRecord& r);
CaseRecord case_record_from_json(const nlohmann::json& j);

struct Finding {
  std::string key;       // what groups raw cases: the signature, or for a corpus case its id and canonical form
  std::string signature;
  std::string property;
  std::string family;
  Verdict verdict = Verdict::discrepancy;  // discrepancy, expect_failed or known
  std::string known_id;
  CaseRecord minimal;    // the shrunk case (for corpus cases: the case itself)
  Case original;         // the first raw case that hit this signature, before shrinking
  long hits = 0;         // raw cases that hit this signature
  int shrink_steps = 0;  // accepted shrinking steps from original to minimal
  bool shrunk = false;   // whether it was shrunk at all (a run shrinks only new findings unless --shrink all)
  long first_seq = -1;   // seq of the original case: the earliest raw case with this key
  // How to see it again (run/replay_commands.h): broadcheck's reproduce token (generated cases) and the command
  // that replays it, a replay command for the minimal case (both runnable from any folder, with the run's voters
  // and flags), for each adapter among the odd ones out a shell command that runs the case on it alone, and a
  // GoogleTest draft that shows the difference without broadcheck.
  std::string reproduce;
  std::string reproduce_command;
  std::string replay_command;
  std::map<std::string, std::string> adapter_commands;  // adapter name -> command
  std::string regression_draft;
  // The minimal case run again in fresh workers (run/rerun.h): only a new finding is, once per signature.
  Reproduction reproduction;
  // A new finding fails the run; one that did not reproduce alike (flaky, nondeterministic) is reported apart.
  bool is_new() const {
    return (verdict == Verdict::discrepancy || verdict == Verdict::expect_failed) && reproduction.stable();
  }
};
nlohmann::json to_json(const Finding& f);
Finding finding_from_json(const nlohmann::json& j);

struct DeclarationUse {
  Declaration declaration;
  long covered = 0;  // cases in its scope that ran
  long matched = 0;  // cases it explained
  bool stale() const { return covered > 0 && matched == 0; }
};

struct RunSummary {
  std::string command;                    // "run" or "replay"
  std::vector<std::string> arguments;     // the command line, for the report header
  uint64_t seed = 0;
  long cases_requested = 0;                      // --cases: generated cases per property
  std::string started_at;                 // ISO 8601, UTC
  double seconds = 0;
  std::map<std::string, std::string> versions;     // "engine", "torch", "xtensor", "broadcheck" -> version text
  std::map<std::string, long> verdicts;            // "agree", "discrepancy", "known", "expect_failed" -> cases
  std::map<std::string, long> cases_per_property;  // property (or "corpus") -> cases run
  std::map<std::string, std::map<std::string, long>> cases_per_op;  // property (or "corpus") -> op -> cases run
  std::map<std::string, long> statuses;            // "torch:crash" style counts of non-ok, non-error outcomes
  Scoreboard scoreboard;                           // implementation -> op family -> cases (scoreboard.h)
  Coverage coverage;
  std::vector<Finding> findings;                   // new first, then known; each signature once
  std::vector<DeclarationUse> declarations;
  std::vector<std::string> input_errors;           // "file:line: reason" for each refused corpus line
  std::string shard;                               // "I/N" when this run is one shard of N, else ""
  // What makes two runs the same run, part -> hex hash: "flags" (seed and every flag that changes the results),
  // "corpus" (the replayed cases' contents), "declarations" (the declarations file's content), "implementations"
  // (each voter's name and version). Shards merge only when all four are equal (cli/run_fingerprint.h).
  std::map<std::string, std::string> fingerprint;
  std::string results = "all";                     // --results: which cases results.jsonl holds ("findings", "all")
  // Cases with a difference of each class that did not decide their verdict: "zeros" (the sign of zero, unless
  // --strict-zeros), "message" (a message difference behind an outcome one, or declared), ... (harness/judge.h).
  std::map<std::string, long> difference_classes;
  MessageCatalog messages;                         // every error text by implementation, kind and wording
  bool fail_on_stale = false;                      // --fail-on-stale: stale declarations fail the run
  bool fail_on_missing_coverage = false;           // --fail-on-missing-coverage: a class never drawn fails it
  bool interrupted = false;                        // stopped by SIGINT/SIGTERM before its budget was spent
  int signal = 0;                                  // which signal stopped it (0: none)
  int exit_code = 0;
  std::string internal_error;                      // what failed when broadcheck itself failed (exit 3), else ""
  // --jobs: each job that ended without writing its outputs (killed, say) and what became of its shard: run again
  // in a new job, or missing (the run is then incomplete: internal_error says so).
  std::vector<std::string> job_deaths;
};
// Declarations a run covered but never matched.
long stale_declarations(const RunSummary& s);
// Counts, once per class, the classes of the judgement's differences other than its lead's, into `counts`.
void count_difference_classes(const Judgement& j, std::map<std::string, long>& counts);
nlohmann::json to_json(const RunSummary& s);
RunSummary run_summary_from_json(const nlohmann::json& j);

}  // namespace bc
