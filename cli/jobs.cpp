#include "cli/jobs.h"

#include <sched.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "cli/job_pool.h"
#include "cli/merge.h"
#include "cli/outputs.h"
#include "cli/publish.h"
#include "cli/run.h"
#include "harness/join.h"
#include "oracles/child_process.h"
#include "reports/text_file.h"
#include "reports/verdict.h"
#include "run/exit_codes.h"
#include "run/run.h"

namespace bc {

int available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// The merged summary of the jobs that wrote their outputs (into `staging`, with results.jsonl), or, when none did,
// the summary of a run of no case. The run is incomplete, and says which shards are missing, when a job wrote
// nothing; nullopt when the outputs there are cannot be merged.
static std::optional<RunSummary> merge_jobs(const JobsEnded& ended, const RunOptions& options,
                                            const std::string& staging, std::string& unwritten) {
  std::optional<RunSummary> merged;
  if (ended.dirs.empty()) {
    merged = summary_of_no_case(options);
    try {
      write_text_file(staging + "/results.jsonl", "");
    } catch (const WriteError& e) {
      unwritten = e.what();
    }
  } else {
    merged = merge_into(ended.dirs, staging, options.arguments, false, unwritten);
    if (!merged) return merged;
  }
  merged->job_deaths = ended.deaths;
  std::vector<std::string> why;
  if (!merged->internal_error.empty()) why.push_back(merged->internal_error);
  if (!ended.failed.empty()) why.push_back("failed: " + join(ended.failed, ", "));
  if (!ended.missing.empty())
    why.push_back("incomplete: no outputs from " + join(ended.missing, ", ") +
                  "; the cases of that shard are missing from this report");
  merged->internal_error = join(why, "; ");
  // A job that could not write its outputs met the same unwritable --out as the run: an input error (exit 2).
  for (const std::string& u : ended.unwritten)
    merged->input_errors.push_back("incomplete: " + u + ", so the cases of its shard are missing from this report");
  return merged;
}

int run_jobs(const RunOptions& options, int jobs) {
  if (jobs <= 1) return run_conformance(options);
  const auto t0 = Clock::now();
  OutputFolder outputs;  // the jobs' folders go in its staging folder, and the merged outputs then go in place
  const std::string unwritable = outputs.open(options.out);
  if (!unwritable.empty()) {
    std::cerr << "broadcheck: " << unwritable << "\n";
    return kExitBadInput;
  }
  const std::string base = outputs.staging() + "/jobs";
  if (options.progress != Progress::quiet)  // the jobs name no shard of their own (run/run.cpp): this is the run's
    std::cerr << "running in " << jobs << " jobs, each a shard of the run"
              << (options.shard.count > 1 ? " (shard " + options.shard.text() + ")" : std::string()) << "\n";
  JobsEnded ended;
  try {
    ended = run_job_processes(options, jobs, base);
  } catch (const std::system_error& e) {
    std::cerr << "broadcheck: " << e.what() << "\n";
    return kExitInternal;
  }
  std::string unwritten;
  std::optional<RunSummary> merged = merge_jobs(ended, options, outputs.staging(), unwritten);
  if (!merged) {
    std::cerr << "broadcheck: internal error: the jobs' outputs (in " << base << ") could not be merged\n";
    return kExitInternal;
  }
  merged->shard = options.shard.text();
  merged->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  // As one process would: a run of no case proves nothing (the jobs, being shards, do not say it themselves).
  if (cases_checked(*merged) == 0 && !merged->interrupted && merged->internal_error.empty() &&
      ended.unwritten.empty() && options.shard.count == 1)
    merged->input_errors.push_back(kNothingChecked);
  merged->exit_code = exit_code_for(*merged, merged->signal);
  std::error_code ec;
  std::filesystem::remove_all(base, ec);
  if (!merged->internal_error.empty()) std::cerr << "broadcheck: internal error: " << merged->internal_error << "\n";
  for (const std::string& e : merged->input_errors) std::cerr << "broadcheck: " << e << "\n";
  return publish_run(*merged, outputs, options, unwritten);
}

}  // namespace bc
