#include "run/exit_codes.h"

namespace bc {

int exit_code_for(const RunSummary& summary, int signal_number) {
  if (!summary.internal_error.empty()) return kExitInternal;
  if (!summary.input_errors.empty()) return kExitBadInput;
  for (const Finding& f : summary.findings)
    if (f.is_new()) return kExitFindings;
  if (summary.fail_on_stale && stale_declarations(summary) > 0) return kExitFindings;
  if (summary.fail_on_missing_coverage && !summary.coverage.missing().empty()) return kExitFindings;
  if (signal_number != 0) return 128 + signal_number;
  return kExitOk;
}

}  // namespace bc
