#include "run/run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <stdexcept>

#include "harness/console.h"
#include "harness/utf8.h"
#include "properties/registry.h"
#include "reports/jsonl_writer.h"
#include "reports/text_file.h"
#include "reports/verdict.h"
#include "run/exit_codes.h"
#include "run/run_inputs.h"
#include "run/runner.h"
#include "run/stop_signal.h"

namespace bc {

namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// The properties --property names, in order (all of them when it names none); an unknown or repeated name is an
// input error of the command line.
std::vector<const Property*> chosen_properties(const RunOptions& options, RunSummary& summary) {
  std::vector<const Property*> chosen;
  for (const std::string& name : options.properties) {
    const Property* p = find_property(name);
    if (p && std::find(chosen.begin(), chosen.end(), p) != chosen.end())
      summary.input_errors.push_back("--property " + name + " is given twice");
    else if (p) chosen.push_back(p);
    else summary.input_errors.push_back("--property: unknown property \"" + visible_utf8(name) + "\"; valid: " + property_names());
  }
  if (chosen.empty())
    for (const Property& p : properties()) chosen.push_back(&p);
  return chosen;
}

// The corpus, then the search; throws what the run could not survive (WriteError when results.jsonl fails).
void replay_then_search(const RunOptions& options, const OracleFactory& make_oracles, const std::string& results,
                        const std::vector<const Property*>& chosen, bool usable, RunSummary& summary) {
  const bool quiet = options.progress == Progress::quiet;
  JsonlWriter out(results, options.results);
  Runner runner(options, summary, out, make_oracles);
  RunInputs inputs = usable ? load_run_inputs(options) : RunInputs{};
  runner.use_declarations(std::move(inputs.declarations));
  summary.input_errors.insert(summary.input_errors.end(), inputs.errors.begin(), inputs.errors.end());
  if (!options.job)  // the jobs' parent prints them once for the whole run
    for (const std::string& e : summary.input_errors) std::cerr << "broadcheck: " << e << "\n";
  if (!quiet && !inputs.entries.empty()) console_message(fmt::format("replaying {} corpus case(s)\n", inputs.entries.size()));
  runner.replay(inputs.entries);
  // For tests of the internal-error path (nothing else reaches it on purpose): fail after the replay.
  if (std::getenv("BROADCHECK_INJECT_INTERNAL_ERROR"))
    throw std::runtime_error("failure injected by BROADCHECK_INJECT_INTERNAL_ERROR");
  if (options.random && usable) {
    // A job's shard is its parent's business: the parent names the run's own (cli/jobs.cpp).
    if (!quiet)
      console_message(fmt::format(
          "checking {} properties, {}{}, seed {}{}\n", chosen.size(),
          options.cases ? std::to_string(*options.cases) + " cases each" : std::string("cases until the time is up"),
          options.time_budget > 0 ? fmt::format(", at most {:g} s", options.time_budget) : "", options.seed,
          summary.shard.empty() || options.job ? "" : ", shard " + summary.shard));
    runner.search(chosen);
  }
  runner.finish();
  out.finish();
}

}  // namespace

RunSummary summary_of_no_case(const RunOptions& options) {
  RunSummary summary;
  summary.command = options.command;
  summary.arguments = options.arguments;
  summary.seed = options.seed;
  summary.cases_requested = options.random && options.cases ? *options.cases : 0;
  summary.shard = options.shard.text();
  summary.results = to_string(options.results);
  summary.fail_on_stale = options.fail_on_stale;
  summary.fail_on_missing_coverage = options.fail_on_missing_coverage;
  summary.started_at = utc_now();
  return summary;
}

std::string run_cases(const RunOptions& options, const OracleFactory& make_oracles, const std::string& results,
                      RunSummary& summary) {
  summary.input_errors = options.input_errors;
  const std::vector<const Property*> chosen = chosen_properties(options, summary);
  const bool usable = summary.input_errors.empty();  // a bad command line runs nothing; bad lines drop only themselves
  std::string unwritten;  // why results.jsonl could not be written, if it could not
  catch_stop_signals();
  try {
    replay_then_search(options, make_oracles, results, chosen, usable, summary);
  } catch (const WriteError& e) {  // results.jsonl is incomplete: no report of this run can be published
    unwritten = visible_utf8(e.what());
  } catch (const std::exception& e) {
    summary.internal_error = visible_utf8(e.what());
    console_message("broadcheck: internal error: " + summary.internal_error + "; reporting what ran\n");
  }
  const int sig = release_stop_signals();
  summary.interrupted = sig != 0;
  summary.signal = sig;
  // One shard of several may hold no case at all; the merged run is where that would count.
  if (cases_checked(summary) == 0 && !summary.interrupted && summary.internal_error.empty() && options.shard.count == 1) {
    summary.input_errors.push_back(kNothingChecked);
    std::cerr << "broadcheck: " << kNothingChecked << "\n";
  }
  // New findings first, then known; discovery order otherwise.
  std::stable_sort(summary.findings.begin(), summary.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.is_new() && !b.is_new(); });
  summary.exit_code = exit_code_for(summary, sig);
  return unwritten;
}

}  // namespace bc
