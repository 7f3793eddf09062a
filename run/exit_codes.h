// The exit codes of every command, and the one a finished run's summary gets.
#pragma once

#include "harness/run_record.h"

namespace bc {

constexpr int kExitOk = 0;          // nothing new disagrees
constexpr int kExitFindings = 1;    // a new discrepancy, or a failed expectation
constexpr int kExitBadInput = 2;    // bad usage, or an input file or line that could not be used
constexpr int kExitInternal = 3;    // broadcheck itself failed
// An interrupted run with no new finding exits 128 + the signal (130 for SIGINT, 143 for SIGTERM).

// Exit code for a summary: an internal error 3, input errors 2, new findings (or, under --fail-on-stale, stale
// declarations; under --fail-on-missing-coverage, a required coverage class never drawn) 1, interrupted
// 128 + signal, else 0.
int exit_code_for(const RunSummary& summary, int signal_number);

}  // namespace bc
