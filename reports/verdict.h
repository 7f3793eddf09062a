// The run's result in one line of words, the same on the console and at the top of report.html.
//
// Contract: every verdict that holds, worst first, joined by " · ", each an upper-case word group and a sentence:
// INTERNAL ERROR (3), NOTHING CHECKED (2, no case ran), INPUT ERRORS (2), FAILED (1: new findings, and stale
// declarations under --fail-on-stale), INTERRUPTED (128 + signal), PASSED (0, alone). The first agrees with the
// exit code, and the ones after it are news a worse one must not hide (input errors next to new findings).
// PASSED is only ever said of a run that checked at least one case.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

// Cases the run judged (every verdict).
long cases_checked(const RunSummary& s);

std::string verdict_text(const RunSummary& s);

// Whether the verdict is a pass (for styling).
bool verdict_passed(const RunSummary& s);

}  // namespace bc
