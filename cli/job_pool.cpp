#include "cli/job_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <thread>

#include "cli/run.h"
#include "oracles/child_process.h"
#include "run/exit_codes.h"

namespace bc {
namespace {

std::atomic<int> g_parent_signal{0};
extern "C" void on_parent_signal(int sig) { g_parent_signal.store(sig); }

// SIGINT and SIGTERM are noted, not fatal, while the parent waits for its jobs, so that it can pass a signal sent
// to it alone on to the jobs.
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

struct Job {
  int index = 0;
  Shard shard;
  std::string dir;
  pid_t pid = -1;
  int unwritten_fd = -1;  // the read end of the pipe the job says through why it could not write its outputs
  int starts = 0;
  bool running = false;
  std::string name() const { return "job " + std::to_string(index) + " (shard " + shard.text() + ")"; }
};

// Job `j` of `jobs`: the same run, as a shard of it (of the shard it is), in a folder of its own.
RunOptions job_options(const RunOptions& options, const Job& job, double time_budget) {
  RunOptions mine = options;
  mine.shard = job.shard;
  mine.out = job.dir;
  mine.save.clear();  // the parent saves the merged findings once
  mine.job = true;
  mine.time_budget = time_budget;
  if (job.index != 0) mine.progress = Progress::quiet;  // one progress line (the first job's) is enough to see it move
  return mine;
}

// Forks `job`, which runs its shard for at most `time_budget` seconds (0: no limit) and exits with its run's code.
void start(Job& job, const RunOptions& options, double time_budget) {
  const pid_t parent = ::getpid();
  int why[2];
  if (::pipe2(why, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(why[0]);
    ::close(why[1]);
    throw std::system_error(e, std::generic_category(), "cannot start " + job.name());
  }
  if (pid == 0) {
    die_with_parent(parent, kExitInternal);  // a parent killed outright takes its jobs with it
    ::close(why[0]);
    int code = kExitInternal;
    try {
      RunOptions mine = job_options(options, job, time_budget);
      mine.unwritten_fd = why[1];
      code = run_conformance(mine);
    } catch (const std::exception& e) {
      std::cerr << "broadcheck: " << job.name() << ": " << e.what() << "\n";
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(code);  // never the parent's atexit handlers: this is a copy of it
  }
  ::close(why[1]);
  ::fcntl(why[0], F_SETFL, O_NONBLOCK);  // the job's workers may hold the write end a moment longer
  if (job.unwritten_fd >= 0) ::close(job.unwritten_fd);
  job.unwritten_fd = why[0];
  job.pid = pid;
  job.running = true;
  ++job.starts;
}

// What the job that ended said through its pipe: why it could not write its outputs, or "".
std::string unwritten_reason(Job& job) {
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(job.unwritten_fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) text.append(buf, static_cast<size_t>(n));
  ::close(job.unwritten_fd);
  job.unwritten_fd = -1;
  return text;
}

class Pool {
 public:
  Pool(const RunOptions& options, int jobs, const std::string& base) : options_(options) {
    for (int j = 0; j < jobs; ++j) {
      Job job;
      job.index = j;
      job.shard = {options.shard.index + options.shard.count * j, options.shard.count * jobs};
      job.dir = base + "/" + std::to_string(j);
      jobs_.push_back(job);
    }
  }

  JobsEnded run() {
    try {
      for (Job& job : jobs_) start(job, options_, options_.time_budget);
      wait_for_all();
    } catch (const std::system_error&) {
      for (Job& job : jobs_)
        if (job.running) ::kill(job.pid, SIGTERM);
      for (Job& job : jobs_)
        if (job.running) ::waitpid(job.pid, nullptr, 0);
      throw;
    }
    for (const Job& job : jobs_)
      if (std::filesystem::exists(job.dir + "/summary.json")) ended_.dirs.push_back(job.dir);
    return ended_;
  }

 private:
  void wait_for_all() {
    bool forwarded = false;
    while (reap_ended()) {
      const int sig = g_parent_signal.load();
      if (sig != 0 && !forwarded) {  // the jobs stop cleanly, as a single run would
        for (Job& job : jobs_)
          if (job.running) ::kill(job.pid, sig);
        forwarded = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  // Reaps the jobs that ended (each its own pid: this process may have other children). Whether any still runs.
  bool reap_ended() {
    bool any = false;
    for (Job& job : jobs_) {
      if (!job.running) continue;
      int status = 0;
      const pid_t r = ::waitpid(job.pid, &status, WNOHANG);
      if (r == 0 || (r < 0 && errno == EINTR)) {
        any = true;
        continue;
      }
      job.running = false;
      ended(job, status);
      any = any || job.running;
    }
    return any;
  }

  // A job that wrote its outputs is done; one killed before it did runs its shard once more if there is time.
  void ended(Job& job, int status) {
    const std::string unwritten = unwritten_reason(job);
    if (std::filesystem::exists(job.dir + "/summary.json")) {
      if (!WIFEXITED(status) || WEXITSTATUS(status) == kExitInternal)
        ended_.failed.push_back(job.name() + ", " + describe_wait_status(status));
      return;
    }
    if (!unwritten.empty()) {  // running it again would meet the same full disk
      const std::string what = job.name() + " could not write its outputs (" + unwritten + ")";
      ended_.unwritten.push_back(what);
      ended_.deaths.push_back(what + "; its shard's cases are missing");
      return;
    }
    const std::string what =
        job.name() + (WIFSIGNALED(status) ? " was killed by " + signal_name(WTERMSIG(status))
                                          : " ended (" + describe_wait_status(status) + ") without writing its outputs") +
        (job.starts > 1 ? " on its second run" : "");
    const double left = options_.time_budget - std::chrono::duration<double>(Clock::now() - t0_).count();
    const bool again = WIFSIGNALED(status) && job.starts == 1 && g_parent_signal.load() == 0 &&
                       (options_.time_budget <= 0 || left >= 1);
    const std::string then = again ? "; its shard runs again in a new job" : "; its shard's cases are missing";
    std::cerr << "broadcheck: " << what << then << "\n";
    ended_.deaths.push_back(what + (again ? "; its shard ran again in a new job" : then));
    if (!again) {
      ended_.missing.push_back(job.name());
      return;
    }
    start(job, options_, options_.time_budget > 0 ? left : 0);
  }

  const RunOptions& options_;
  std::vector<Job> jobs_;
  JobsEnded ended_;
  Clock::time_point t0_ = Clock::now();
};

}  // namespace

JobsEnded run_job_processes(const RunOptions& options, int jobs, const std::string& base) {
  g_parent_signal.store(0);
  ParentSignals signals;
  return Pool(options, jobs, base).run();
}

}  // namespace bc
