// One run in this process, as `broadcheck run` and `broadcheck replay` make it: the corpus cases replayed first,
// then every chosen property's generated cases (run/runner.h), results.jsonl streamed, and the summary filled in
// for the reports. SIGINT/SIGTERM stop it cleanly with everything found so far.
#pragma once

#include <string>

#include "harness/run_record.h"
#include "run/rerun.h"
#include "run/run_options.h"

namespace bc {

// The input error of a run in which no case ran: such a run proves nothing and must not pass.
inline constexpr const char* kNothingChecked =
    "nothing was checked: no corpus case and no generated case ran (an empty corpus, --no-replay, --cases 0 or "
    "--op leave nothing to run); a run must check at least one case to pass";

// The summary of a run with these options before any case ran: command, arguments, seed, shard, start time.
RunSummary summary_of_no_case(const RunOptions& options);

// Runs `options` on the oracles `make_oracles` makes (a fresh set for each re-run), streaming results.jsonl to
// `results`, and fills in `summary` (from summary_of_no_case): every case's counts, the findings (new first, then
// known, in discovery order otherwise), input errors, an internal error, the signal and the exit code. A bad
// command line (an unknown or repeated --property) runs nothing; bad input lines drop only themselves. Returns why
// results.jsonl could not be written (the system's reason), "" when it was.
std::string run_cases(const RunOptions& options, const OracleFactory& make_oracles, const std::string& results,
                      RunSummary& summary);

}  // namespace bc
