#include "reports/verdict.h"

#include <vector>

#include "harness/join.h"

namespace bc {

long cases_checked(const RunSummary& s) {
  long n = 0;
  for (const auto& [verdict, count] : s.verdicts) n += count;
  return n;
}

bool verdict_passed(const RunSummary& s) { return s.exit_code == 0 && cases_checked(s) > 0; }

namespace {

// Each verdict that holds, in words, worst first (never empty).
std::vector<std::string> verdicts_worst_first(const RunSummary& s) {
  long fresh = 0;
  for (const Finding& f : s.findings) fresh += f.is_new() ? 1 : 0;
  const long cases = cases_checked(s), stale = s.fail_on_stale ? stale_declarations(s) : 0;
  const std::string errors = std::to_string(s.input_errors.size()) + " input error(s)";
  std::vector<std::string> all;
  if (s.exit_code == 3 || !s.internal_error.empty())
    all.push_back("INTERNAL ERROR: broadcheck itself failed" +
                  (s.internal_error.empty() ? std::string() : ": " + s.internal_error));
  if (!s.input_errors.empty())
    all.push_back(cases == 0 ? "NOTHING CHECKED: no case ran, so nothing can have passed (" + errors + ")"
                             : "INPUT ERRORS: " + errors + "; the inputs that could be used ran");
  if (fresh > 0)
    all.push_back("FAILED: " + std::to_string(fresh) +
                  " new finding(s) — the implementations disagree where nothing declares it");
  if (stale > 0)
    all.push_back("FAILED: " + std::to_string(stale) +
                  " stale declaration(s) under --fail-on-stale — declarations that covered cases and explained none");
  const size_t missing = s.fail_on_missing_coverage ? s.coverage.missing().size() : 0;
  if (missing > 0)
    all.push_back("FAILED: " + std::to_string(missing) +
                  " coverage class(es) never drawn under --fail-on-missing-coverage — a property checked less than it "
                  "requires");
  if (s.interrupted)
    all.push_back(all.empty() ? "INTERRUPTED: nothing new so far, but the run did not finish"
                              : "INTERRUPTED: the run did not finish");
  if (all.empty())
    all.push_back(cases == 0 ? "NOTHING CHECKED: no case ran"
                             : "PASSED: nothing new disagrees in " + std::to_string(cases) + " case(s)");
  return all;
}

}  // namespace

std::string verdict_text(const RunSummary& s) { return join(verdicts_worst_first(s), " · "); }

}  // namespace bc
