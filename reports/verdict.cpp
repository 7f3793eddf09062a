#include "reports/verdict.h"

namespace bc {

long cases_checked(const RunSummary& s) {
  long n = 0;
  for (const auto& [verdict, count] : s.verdicts) n += count;
  return n;
}

bool verdict_passed(const RunSummary& s) { return s.exit_code == 0 && cases_checked(s) > 0; }

std::string verdict_text(const RunSummary& s) {
  long fresh = 0;
  for (const Finding& f : s.findings) fresh += f.is_new() ? 1 : 0;
  const std::string errors = std::to_string(s.input_errors.size()) + " input error(s)";
  if (s.exit_code == 3) return "INTERNAL ERROR: broadcheck itself failed" +
                               (s.internal_error.empty() ? std::string() : ": " + s.internal_error);
  if (s.exit_code == 2 && cases_checked(s) == 0)
    return "NOTHING CHECKED: no case ran, so nothing can have passed (" + errors + ")";
  if (s.exit_code == 2) return "INPUT ERRORS: " + errors + "; the inputs that could be used ran";
  if (fresh > 0)
    return "FAILED: " + std::to_string(fresh) + " new finding(s) — the implementations disagree where nothing declares it";
  if (s.fail_on_stale && stale_declarations(s) > 0)
    return "FAILED: " + std::to_string(stale_declarations(s)) +
           " stale declaration(s) under --fail-on-stale — declarations that covered cases and explained none";
  if (s.interrupted) return "INTERRUPTED: nothing new so far, but the run did not finish";
  if (cases_checked(s) == 0) return "NOTHING CHECKED: no case ran";
  return "PASSED: nothing new disagrees in " + std::to_string(cases_checked(s)) + " case(s)";
}

}  // namespace bc
