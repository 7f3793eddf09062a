// `broadcheck run --jobs N` (cli/jobs.h), through the real binary: the outputs of N processes are those of one.
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "cli_util.h"

namespace {

// Every live process (a zombie is dead) and its parent, from /proc.
std::map<pid_t, pid_t> live_processes() {
  std::map<pid_t, pid_t> parent;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = slurp(entry.path() / "stat");
    const auto close = stat.rfind(')');  // the command name in parentheses may hold anything
    if (close == std::string::npos || close + 4 > stat.size()) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (state != 'Z' && state != 'X') parent[std::stoi(name)] = static_cast<pid_t>(ppid);
  }
  return parent;
}

std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  for (const auto& [p, parent] : live_processes())
    if (parent == pid) out.push_back(p);
  return out;  // in pid order: the jobs in the order they were forked
}

std::vector<pid_t> descendants_of(pid_t pid) {
  const std::map<pid_t, pid_t> all = live_processes();
  std::vector<pid_t> out{pid};
  for (size_t k = 0; k < out.size(); ++k)
    for (const auto& [p, parent] : all)
      if (parent == out[k]) out.push_back(p);
  out.erase(out.begin());
  return out;
}

// Waits (up to `seconds`) until `ready` holds; whether it did.
template <typename Ready>
bool wait_until(Ready ready, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!ready()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

void expect_same_outputs(const fs::path& a, const fs::path& b) {
  EXPECT_EQ(slurp(a / "results.jsonl"), slurp(b / "results.jsonl"));
  EXPECT_EQ(summary_without_timing(a), summary_without_timing(b));
  EXPECT_EQ(report_without_timing(a), report_without_timing(b));
}

// The built-in implementations only (--no-config): tfjs-wasm's answers depend on what its memory holds (its bool
// kernels, its faults), so a finding it takes part in shrinks to another minimal case from process to process.
TEST(Jobs, TwoOrThreeJobsWriteWhatOneProcessWrites) {
  const std::string args =
      "run --seed 11 --cases 60 --no-config --known " + nondeterministic_declarations_only() + " --quiet --out ";
  ASSERT_EQ(broadcheck(args + scratch("one").string() + " --jobs 1").exit_code, 1);
  ASSERT_GT(nlohmann::json::parse(slurp(scratch("one") / "summary.json"))["findings"].size(), 0u);
  for (const char* jobs : {"2", "3"}) {
    const fs::path out = scratch(std::string("jobs") + jobs);
    CliRun r = broadcheck(args + out.string() + " --jobs " + jobs);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    expect_same_outputs(scratch("one"), out);
    EXPECT_FALSE(fs::exists(out / "jobs")) << "the jobs' own folders are removed after the merge";
  }
}

TEST(Jobs, JobsOfAShardSplitThatShard) {
  const std::string args = "run --seed 5 --cases 30 --no-replay --quiet --shard 1/2 --out ";
  ASSERT_EQ(broadcheck(args + scratch("shard-one").string() + " --jobs 1").exit_code, 0);
  ASSERT_EQ(broadcheck(args + scratch("shard-two").string() + " --jobs 2").exit_code, 0);
  expect_same_outputs(scratch("shard-one"), scratch("shard-two"));
  EXPECT_EQ(nlohmann::json::parse(slurp(scratch("shard-two") / "summary.json"))["shard"], "1/2");
}

// A GitHub Actions job page gets one section for the run, the merged one, not one per job besides (issue 36).
TEST(Jobs, TheStepSummaryGetsOneSectionForTheWholeRun) {
  const fs::path out = scratch("jobs-step"), step = scratch("jobs-step-summary.md");
  std::ofstream(step) << "# earlier step\n";
  const std::string cmd = "GITHUB_STEP_SUMMARY=" + step.string() + " " + bc::test_binary_dir() +
                          "/broadcheck run --seed 11 --cases 20 --no-known --quiet --jobs 2 --out " + out.string() +
                          " 2>/dev/null";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(slurp(step), "# earlier step\n" + slurp(out / "summary.md") + "\n");
}

// The console speaks of the run, not of its jobs: no "shard 0/2" for a run the user did not shard, the user's own
// shard when there is one; durations with one decimal.
TEST(Jobs, TheConsoleNamesTheRunsShardNotAJobs) {
  const CliRun whole = broadcheck("run --seed 5 --cases 5 --no-replay --jobs 2 --out " + scratch("jobs-console").string());
  EXPECT_EQ(whole.exit_code, 0) << whole.output;
  for (const char* job_shard : {"shard 0/2", "shard 1/2"})
    EXPECT_EQ(whole.output.find(job_shard), std::string::npos) << whole.output;
  const size_t done = whole.output.find("done in ");
  ASSERT_NE(done, std::string::npos) << whole.output;
  const std::string seconds = whole.output.substr(done + 8, whole.output.find(' ', done + 8) - done - 8);
  ASSERT_GE(seconds.size(), 3u) << whole.output;
  EXPECT_EQ(seconds.find('.'), seconds.size() - 2) << seconds;
  const CliRun half =
      broadcheck("run --seed 5 --cases 5 --no-replay --jobs 2 --shard 1/2 --out " + scratch("jobs-console-half").string());
  EXPECT_NE(half.output.find("shard 1/2"), std::string::npos) << half.output;
  EXPECT_EQ(half.output.find("/4"), std::string::npos) << half.output;
}

TEST(Jobs, BadUsageIsReportedOnceAndExitsTwo) {
  CliRun r = broadcheck("run --jobs 2 --property nope --out " + scratch("jobs-nope").string());
  EXPECT_EQ(r.exit_code, 2);
  const auto first = r.output.find("unknown property");
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("unknown property", first + 1), std::string::npos) << r.output;
  EXPECT_EQ(broadcheck("run --jobs 0").exit_code, 2);
}

// 256 jobs on a machine of few cores started more adapters and workers than it could schedule before their
// deadlines, and the run was an internal error; it takes at most 4 jobs per core.
TEST(Jobs, FarMoreJobsThanCoresRunAsFourPerCore) {
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  if (4 * CPU_COUNT(&set) >= 256) GTEST_SKIP() << "this machine has cores enough for 256 jobs";
  const fs::path out = scratch("jobs-256");
  CliRun r = broadcheck("run --seed 3 --cases 8 --no-replay --property elementwise_agree --jobs 256 --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("broadcheck: --jobs 256: at most 4 per core available here, so the run takes "),
            std::string::npos) << r.output;
  EXPECT_EQ(nlohmann::json::parse(slurp(out / "summary.json")).value("internal_error", ""), "");
}

TEST(Jobs, ASignalToTheParentAloneStopsEveryJobAndTheRunReportsWhatRan) {
  const fs::path out = scratch("jobs-interrupt"), code = scratch("jobs-interrupt-code");
  const std::string cmd = "sh -c '" + bc::test_binary_dir() +
                          "/broadcheck run --seed 1 --time 60 --no-known --jobs 2 --quiet --out " + out.string() +
                          " & pid=$!; "
                          "for i in $(seq 100); do [ -s " + (out / "jobs/1/results.jsonl").string() +
                          " ] && break; sleep 0.1; done; sleep 1; kill -TERM $pid; wait $pid; echo $? > " +
                          code.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(code), "1\n") << "undeclared findings were made before the signal";
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_TRUE(summary["interrupted"].get<bool>());
  EXPECT_EQ(summary["signal"], 15);
  EXPECT_LT(summary["seconds"].get<double>(), 30.0);
  // Both jobs' cases are in the merged outputs: job k runs the cases whose seq is k modulo 2 (how many each ran
  // before the signal depends on the machine's load).
  std::set<long> jobs;
  for (const std::string& line : case_lines(out / "results.jsonl")) jobs.insert(nlohmann::json::parse(line).at("seq").get<long>() % 2);
  EXPECT_EQ(jobs, (std::set<long>{0, 1})) << "both jobs' cases are in the merged results";
  long cases = 0;
  for (const auto& [property, n] : summary["cases"].items()) cases += n.get<long>();
  EXPECT_GE(cases, static_cast<long>(case_lines(out / "results.jsonl").size())) << "the summary counts every case written";
}


// The out-of-memory killer's way: SIGKILL to one job, which can neither report nor clean up. Its shard runs again in
// a new job, so the reports hold what every job found, as an undisturbed run's, and they name the death.
TEST(Jobs, AJobKilledOutrightRunsItsShardAgainAndTheReportsHoldWhatEveryJobFound) {
  const std::vector<std::string> args = {"run", "--seed", "3", "--cases", "400", "--no-config", "--quiet", "--out"};
  const fs::path whole = scratch("killed-job-whole"), out = scratch("killed-job");
  const int expected = broadcheck("run --seed 3 --cases 400 --no-config --quiet --jobs 1 --out " + whole.string()).exit_code;
  ASSERT_LE(expected, 1);
  std::vector<std::string> killed = args;
  for (const std::string& a : {out.string(), std::string("--jobs"), std::string("2")}) killed.push_back(a);
  const pid_t run = start_broadcheck(killed, scratch("killed-job.log"));
  pid_t job1 = -1;  // the second job forked; killed once its workers run cases
  ASSERT_TRUE(wait_until([&] {
    const std::vector<pid_t> jobs = children_of(run);
    if (jobs.size() == 2 && !children_of(jobs[1]).empty()) job1 = jobs[1];
    return job1 > 0;
  }, 120)) << slurp(scratch("killed-job.log"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(::kill(job1, SIGKILL), 0);
  EXPECT_EQ(exit_code_of(run), expected) << slurp(scratch("killed-job.log"));

  nlohmann::json summary = summary_without_timing(out);
  ASSERT_EQ(summary["job_deaths"].size(), 1u) << summary["job_deaths"];
  const std::string death = summary["job_deaths"][0];
  EXPECT_EQ(death.rfind("job 1 (shard 1/2) was killed by SIGKILL", 0), 0u) << death;
  summary.erase("job_deaths");
  EXPECT_EQ(summary, summary_without_timing(whole)) << "the shard ran again: nothing is missing, nothing twice";
  EXPECT_EQ(slurp(out / "results.jsonl"), slurp(whole / "results.jsonl"));
  EXPECT_NE(slurp(out / "report.html").find("JOB DIED"), std::string::npos);
  EXPECT_NE(slurp(out / "summary.md").find(death), std::string::npos);
  EXPECT_NE(slurp(scratch("killed-job.log")).find(death.substr(0, 20)), std::string::npos) << "said on the console";
}

// When the shard's second job is killed too, the shard is missing: every report is still written, with what the
// other job found, and the run is incomplete (exit 3), naming the shard.
TEST(Jobs, AShardWhoseJobIsKilledTwiceIsMissingAndTheRunSaysItIsIncomplete) {
  const fs::path out = scratch("killed-twice"), log = scratch("killed-twice.log");
  const pid_t run = start_broadcheck(
      {"run", "--seed", "3", "--cases", "400", "--no-config", "--quiet", "--jobs", "2", "--out", out.string()}, log);
  pid_t job0 = -1;
  ASSERT_TRUE(wait_until([&] {
    const std::vector<pid_t> jobs = children_of(run);
    if (jobs.size() == 2) job0 = jobs[0];
    return job0 > 0;
  }, 120)) << slurp(log);
  int status = 0;
  while (::waitpid(run, &status, WNOHANG) == 0) {  // every job but the first, each time one is started
    for (pid_t job : children_of(run))
      if (job != job0) ::kill(job, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << slurp(log);
  for (const char* name : {"results.jsonl", "summary.json", "summary.md", "junit.xml", "report.html"})
    EXPECT_TRUE(fs::exists(out / name)) << name;
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_EQ(summary["job_deaths"].size(), 2u) << summary["job_deaths"];
  for (const auto& death : summary["job_deaths"])
    EXPECT_EQ(death.get<std::string>().rfind("job 1 (shard 1/2) was killed by SIGKILL", 0), 0u) << death;
  const std::string why = summary["internal_error"];
  EXPECT_NE(why.find("incomplete: no outputs from job 1 (shard 1/2)"), std::string::npos) << why;
  long cases = 0;
  for (const auto& [property, n] : summary["cases"].items()) cases += n.get<long>();
  EXPECT_GT(cases, 0) << "the first job's cases are reported";
  EXPECT_NE(slurp(out / "junit.xml").find("incomplete"), std::string::npos);
}

// A SIGKILL to the main process: its jobs, their workers and their adapters end with it, not when --time runs out.
TEST(Jobs, AKilledParentTakesItsJobsWorkersAndAdaptersWithIt) {
  const std::string adapter = "/usr/bin/python3 " + bc::test_source_dir() + "/tests/oracles/adapters/shape_adapter.py";
  const pid_t run = start_broadcheck({"run", "--seed", "1", "--time", "120", "--no-config", "--oracle",
                                      "shape=" + adapter, "--jobs", "2", "--quiet", "--out",
                                      scratch("killed-parent").string()},
                                     scratch("killed-parent.log"));
  std::vector<pid_t> family;  // 2 jobs, and in each a LibTorch worker, an xtensor worker, the adapter, ...
  ASSERT_TRUE(wait_until([&] { return (family = descendants_of(run)).size() >= 8; }, 120))
      << family.size() << " processes\n" << slurp(scratch("killed-parent.log"));
  ASSERT_EQ(::kill(run, SIGKILL), 0);
  exit_code_of(run);
  const auto left = [&] {
    const std::map<pid_t, pid_t> live = live_processes();
    std::vector<pid_t> out;
    for (pid_t p : family)
      if (live.count(p)) out.push_back(p);
    return out;
  };
  EXPECT_TRUE(wait_until([&] { return left().empty(); }, 10)) << left().size() << " of " << family.size() << " left";
  for (pid_t p : left()) ::kill(p, SIGKILL);  // not to leave them to the next test
}

// A full disk (a 2 MB tmpfs): the run says ENOSPC by name, leaves no staging folder behind to keep the disk full,
// and no earlier run's PASSED report in --out that would look like this run's.
TEST(Jobs, AFullDiskIsNamedAndLeavesNeitherItsStagingNorAnEarlierReport) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root";
  const fs::path disk = scratch("full-disk");
  fs::create_directories(disk);
  if (std::system(("mount -t tmpfs -o size=2m tmpfs " + disk.string()).c_str()) != 0)
    GTEST_SKIP() << "mount -t tmpfs failed here, so there is no small disk to fill";
  struct Unmount {
    std::string cmd;
    ~Unmount() { (void)std::system(cmd.c_str()); }
  } unmount{"umount " + disk.string()};
  for (const char* jobs : {"1", "2"}) {
    const fs::path out = disk / (std::string("out") + jobs), filler = disk / "filler";
    // One property without the corpus: the earlier run's outputs (about 300 KB) fit on the disk.
    const std::string flags = " --no-config --no-replay --property expand_agree --quiet --jobs " + std::string(jobs) +
                              " --out " + out.string();
    ASSERT_EQ(broadcheck("run --seed 1 --cases 3" + flags).exit_code, 0) << "the earlier run passes";
    std::map<std::string, std::string> earlier;
    for (const auto& entry : fs::directory_iterator(out)) earlier[entry.path().filename()] = slurp(entry.path());
    ASSERT_EQ(earlier.count("summary.json"), 1u);
    {  // the rest of the disk
      std::ofstream fill(filler, std::ios::binary);
      const std::string block(64 * 1024, 'x');
      while (fill.write(block.data(), block.size()) && fill.flush()) {
      }
    }
    const CliRun r = broadcheck("run --seed 1 --cases 300 --results all" + flags);
    EXPECT_NE(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
    for (const auto& entry : fs::directory_iterator(out)) {
      const std::string name = entry.path().filename();
      EXPECT_EQ(name.rfind(".broadcheck-partial", 0), std::string::npos) << "left behind: " << name;
      EXPECT_FALSE(earlier.count(name) && slurp(entry.path()) == earlier[name])
          << name << " is the earlier run's, in place as if current";
    }
    if (fs::exists(out / "summary.json")) {  // the jobs could not write, and the parent then could
      const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
      EXPECT_EQ(summary["exit_code"], 2) << "an --out that cannot be written, not a PASSED report";
      EXPECT_NE(summary["input_errors"].dump().find("No space left on device"), std::string::npos)
          << summary["input_errors"];
    }
    fs::remove(filler);
    fs::remove_all(out);
  }
}

}  // namespace
