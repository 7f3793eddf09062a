#include "cli/jobs.h"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>
#include <vector>

#include "cli/merge.h"
#include "cli/outputs.h"
#include "harness/join.h"
#include "oracles/child_process.h"
#include "reports/verdict.h"

namespace bc {
namespace {

std::atomic<int> g_parent_signal{0};
extern "C" void on_parent_signal(int sig) { g_parent_signal.store(sig); }

// SIGINT and SIGTERM are noted, not fatal, while the parent waits for its jobs; no SA_RESTART, so that waitpid
// returns and the parent can pass a signal sent to it alone on to the jobs.
class ParentSignals {
 public:
  ParentSignals() {
    struct sigaction note {};
    note.sa_handler = on_parent_signal;
    sigemptyset(&note.sa_mask);
    sigaction(SIGINT, &note, &old_int_);
    sigaction(SIGTERM, &note, &old_term_);
  }
  ~ParentSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// Job `j` of `jobs`: the same run, as a shard of it (of the shard it is), in a folder of its own.
RunOptions job_options(const RunOptions& options, int j, int jobs, const std::string& dir) {
  RunOptions mine = options;
  mine.shard = {options.shard.index + options.shard.count * j, options.shard.count * jobs};
  mine.out = dir;
  mine.save.clear();  // the parent saves the merged findings once
  mine.job = true;
  if (j != 0) mine.progress = Progress::quiet;  // one progress line (the first job's) is enough to see it move
  return mine;
}

}  // namespace

int available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
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
  const bool quiet = options.progress == Progress::quiet;
  if (!quiet) std::cerr << "running in " << jobs << " jobs, each a shard of the run\n";

  g_parent_signal.store(0);
  ParentSignals signals;
  std::vector<pid_t> pids;
  std::vector<std::string> dirs;
  for (int j = 0; j < jobs; ++j) {
    dirs.push_back(base + "/" + std::to_string(j));
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
      std::cerr << "broadcheck: cannot start job " << j << ": " << std::strerror(errno) << "\n";
      for (pid_t p : pids) ::kill(p, SIGTERM);
      for (pid_t p : pids) ::waitpid(p, nullptr, 0);
      return kExitInternal;
    }
    if (pid == 0) {
      int code = kExitInternal;
      try {
        code = run_conformance(job_options(options, j, jobs, dirs.back()));
      } catch (const std::exception& e) {
        std::cerr << "broadcheck: job " << j << ": " << e.what() << "\n";
      }
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      _exit(code);  // never the parent's atexit handlers: this is a copy of it
    }
    pids.push_back(pid);
  }

  // A job ends with its run's exit code, its outputs written (an internal error too: it reports what ran).
  std::vector<std::string> failed;
  bool forwarded = false;
  for (size_t j = 0; j < pids.size(); ++j) {
    int status = 0;
    while (::waitpid(pids[j], &status, 0) < 0) {
      if (errno != EINTR) break;
      const int sig = g_parent_signal.load();
      if (sig != 0 && !forwarded) {  // the jobs stop cleanly, as a single run would
        for (pid_t p : pids) ::kill(p, sig);
        forwarded = true;
      }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) == kExitInternal)
      failed.push_back("job " + std::to_string(j) + " (" + describe_wait_status(status) + ")");
  }

  std::optional<RunSummary> merged = merge_into(dirs, outputs.staging(), options.arguments, false);
  if (!merged) {
    std::cerr << "broadcheck: internal error: the jobs' outputs (in " << base << ") could not be merged\n";
    return kExitInternal;
  }
  merged->shard = options.shard.text();
  merged->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!failed.empty() && merged->internal_error.empty())
    merged->internal_error = "failed: " + join(failed, ", ");
  // As one process would: a run of no case proves nothing (the jobs, being shards, do not say it themselves).
  if (cases_checked(*merged) == 0 && !merged->interrupted && merged->internal_error.empty() &&
      options.shard.count == 1)
    merged->input_errors.push_back(kNothingChecked);
  merged->exit_code = exit_code_for(*merged, merged->signal);
  std::error_code ec;
  std::filesystem::remove_all(base, ec);
  if (!merged->internal_error.empty()) std::cerr << "broadcheck: internal error: " << merged->internal_error << "\n";
  for (const std::string& e : merged->input_errors) std::cerr << "broadcheck: " << e << "\n";
  return publish_run(*merged, outputs, options);
}

}  // namespace bc
