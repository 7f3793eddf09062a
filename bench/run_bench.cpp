// The harness's own cost: a full `broadcheck run` (generation, three oracles, judging, results.jsonl, shrinking
// of each new signature, reports) against the oracle calls alone for exactly the same generated cases.
#include <filesystem>

#include <benchmark/benchmark.h>

#include "cli/run.h"
#include "harness/known_divergence.h"
#include "properties/check.h"
#include "properties/registry.h"

namespace bc {
namespace {

constexpr long kCasesPerProperty = 2000;  // the default conformance run's budget

long cases_in_a_run() {
  long n = 0;
  for (const Property& p : properties()) n += p.check == Check::oracles ? kCasesPerProperty : 0;
  return n;
}

RunOptions bench_options() {
  RunOptions o;
  // Isolated, as a real run is: generated value cases include inputs that crash LibTorch and xtensor (SIGFPE), so
  // in process the run would die. BM_OracleCallsOnly calls the same isolated oracles; BM_ValueCases prices isolation.
  o.isolate = true;
  o.cases = kCasesPerProperty;
  o.seed = 1;
  o.out = (std::filesystem::temp_directory_path() / "broadcheck-bench-run").string();
  o.declarations = BC_SOURCE_DIR "/corpus/known_divergences.jsonl";
  o.progress = Progress::quiet;
  for (const Property& p : properties())
    if (p.check == Check::oracles) o.properties.push_back(p.name);
  return o;
}

void BM_FullRun(benchmark::State& state) {
  const RunOptions options = bench_options();
  for (auto _ : state) benchmark::DoNotOptimize(run_conformance(options));
  state.SetItemsProcessed(state.iterations() * cases_in_a_run());
}
BENCHMARK(BM_FullRun)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_OracleCallsOnly(benchmark::State& state) {
  std::vector<Case> cases;  // the very cases the run generates
  for (const Property& p : properties())
    if (p.check == Check::oracles)
      for (long i = 0; i < kCasesPerProperty; ++i) cases.push_back(p.gen(case_random(1, p.name, i)).value());
  auto oracles = make_all_oracles(true);
  for (auto _ : state)
    for (const Case& c : cases) {
      for (auto& o : oracles) o->submit(c);  // as evaluate() does
      for (auto& o : oracles) benchmark::DoNotOptimize(o->run(c));
    }
  state.SetItemsProcessed(state.iterations() * static_cast<long>(cases.size()));
}
BENCHMARK(BM_OracleCallsOnly)->Unit(benchmark::kMillisecond)->Iterations(3);

// Value-level cases (the values_agree property) judged on all oracles, the libraries in their crash-isolated
// workers (arg 1) or called in this process (arg 0): the price of isolation, in one run. Both use the same cases,
// those on which no library crashes (a crash would end the in-process variant).
const std::vector<Case>& value_cases() {
  static const std::vector<Case> cases = [] {
    const Property* p = find_property("values_agree");
    auto isolated = make_all_oracles(true);
    std::vector<Case> out;
    for (long i = 0; out.size() < 512; ++i) {
      Case c = p->gen(case_random(1, p->name, i)).value();
      bool crashes = false;
      for (auto& o : isolated) crashes = crashes || o->run(c).status == Status::crash;
      if (!crashes) out.push_back(c);
    }
    return out;
  }();
  return cases;
}

void BM_ValueCases(benchmark::State& state) {
  const Property* p = find_property("values_agree");
  const std::vector<Case>& cases = value_cases();
  auto oracles = make_all_oracles(state.range(0) == 1);
  const auto declarations = load_declarations(BC_SOURCE_DIR "/corpus/known_divergences.jsonl");
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(evaluate(p->name, cases[i++ % cases.size()], oracles, declarations));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(state.range(0) == 1 ? "LibTorch isolated" : "LibTorch in process");
}
BENCHMARK(BM_ValueCases)->Arg(0)->Arg(1)->UseRealTime();

}  // namespace
}  // namespace bc

BENCHMARK_MAIN();
