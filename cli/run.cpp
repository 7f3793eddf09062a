#include "cli/run.h"

#include <chrono>
#include <iostream>

#include "cli/build_info.h"
#include "cli/builtin_implementations.h"
#include "cli/outputs.h"
#include "cli/publish.h"
#include "cli/run_fingerprint.h"
#include "run/exit_codes.h"
#include "run/run.h"

namespace bc {

int run_conformance(const RunOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  RunSummary summary = summary_of_no_case(options);
  OutputFolder outputs;
  const std::string unwritable = outputs.open(options.out);
  if (!unwritable.empty()) {
    std::cerr << "broadcheck: " << unwritable << "\n";
    return kExitBadInput;
  }
  summary.versions["broadcheck"] = broadcheck_commit();
  const std::string unwritten = run_cases(
      options, [&options] { return make_all_oracles(options.isolate, options.timeout_ms); },
      outputs.path("results.jsonl"), summary);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  summary.fingerprint = run_fingerprint(options, summary.versions);
  return publish_run(summary, outputs, options, unwritten);
}

}  // namespace bc
