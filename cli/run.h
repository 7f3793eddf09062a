// `broadcheck run` and `broadcheck replay` in this process: the output folder opened, the run made (run/run.h) on
// every registered implementation, and its outputs published. Returns the process exit code (run/exit_codes.h).
#pragma once

#include "run/run_options.h"

namespace bc {

int run_conformance(const RunOptions& options);

}  // namespace bc
