// `broadcheck run` as a user runs it: the built binary as a child process, NumPy voting through the committed
// broadcheck.json (unless said otherwise), restricted to the first `cores` processors this process may use
// (sched_setaffinity before exec, which the run's workers, jobs and adapters inherit). Each iteration reports its
// wall time (manual time), and counters for the CPU time of the run and every process it started (getrusage of
// the reaped children), the cores it kept busy (CPU / wall) and the cases it ran (its summary.json).
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

namespace {

const std::string kOut = (std::filesystem::temp_directory_path() / "broadcheck-bench-cli").string();

// The processors this process may run on, in order.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {0};
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

struct Ran {
  double wall = 0, cpu = 0;
  long cases = 0;
};

// Runs `broadcheck ARGS --out kOut -q` on the first `cores` allowed processors and waits for it.
Ran run_broadcheck(const std::vector<std::string>& args, int cores) {
  std::vector<std::string> all = {BC_BINARY_DIR "/broadcheck"};
  all.insert(all.end(), args.begin(), args.end());
  for (const char* more : {"--out", kOut.c_str(), "-q"}) all.emplace_back(more);
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);

  rusage before{}, after{};
  getrusage(RUSAGE_CHILDREN, &before);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    const std::vector<int> cpus = allowed_cpus();
    for (int k = 0; k < cores && k < static_cast<int>(cpus.size()); ++k) CPU_SET(cpus[k], &set);
    sched_setaffinity(0, sizeof set, &set);
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  Ran r;
  r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  getrusage(RUSAGE_CHILDREN, &after);
  r.cpu = seconds(after.ru_utime) - seconds(before.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_stime);
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)  // 0 and 1 are verdicts; anything else is a broken run
    throw std::runtime_error("broadcheck run ended with status " + std::to_string(status));
  std::ifstream in(kOut + "/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  for (const auto& [property, n] : summary.at("cases").items()) r.cases += n.get<long>();
  return r;
}

// Runs `args` once per iteration and reports the iteration's wall time and the counters.
void time_runs(benchmark::State& state, const std::vector<std::string>& args, int cores) {
  Ran total;
  for (auto _ : state) {
    const Ran r = run_broadcheck(args, cores);
    state.SetIterationTime(r.wall);
    total.wall += r.wall;
    total.cpu += r.cpu;
    total.cases += r.cases;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["cases"] = static_cast<double>(total.cases) / n;
  state.counters["cases_per_s"] = static_cast<double>(total.cases) / total.wall;
  state.counters["cpu_s"] = total.cpu / n;
  state.counters["cpu_us_per_case"] = 1e6 * total.cpu / static_cast<double>(total.cases);
  state.counters["cores_busy"] = total.cpu / total.wall;
}

// The README's default run, `broadcheck run --seed 1 --cases 2000` (--jobs: the cores), on every allowed core: arg
// 1 with NumPy voting as committed, arg 0 without it (--no-config), to show what the NumPy voter costs.
void BM_DefaultRun(benchmark::State& state) {
  std::vector<std::string> args = {"run", "--seed", "1", "--cases", "2000"};
  if (state.range(0) == 0) args.emplace_back("--no-config");
  time_runs(state, args, static_cast<int>(allowed_cpus().size()));
  state.SetLabel(state.range(0) == 0 ? "without NumPy" : "NumPy voting");
}
BENCHMARK(BM_DefaultRun)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseManualTime();

// The scaling curve: `broadcheck run --seed 1 --time 8 --jobs J` on `cores` processors, args {cores, J}. The
// cases it runs in those 8 s per cores, with --jobs as the default makes it (the cores) and with one job.
void BM_Scaling(benchmark::State& state) {
  const int cores = static_cast<int>(state.range(0)), jobs = static_cast<int>(state.range(1));
  time_runs(state, {"run", "--seed", "1", "--time", "8", "--jobs", std::to_string(jobs)}, cores);
  state.SetLabel(std::to_string(cores) + " core(s), --jobs " + std::to_string(jobs));
}
void scaling_args(benchmark::internal::Benchmark* b) {
  const int n = static_cast<int>(allowed_cpus().size());
  for (int cores = 1; cores <= n; ++cores) {
    if (cores > 1) b->Args({cores, 1});
    b->Args({cores, cores});
  }
  b->Args({n, n + 1});
  b->Args({n, 2 * n});
}
BENCHMARK(BM_Scaling)->Apply(scaling_args)->Unit(benchmark::kMillisecond)->Iterations(1)->UseManualTime();

}  // namespace

BENCHMARK_MAIN();
