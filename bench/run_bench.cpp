// The harness's own cost: a full `broadcheck run` (generation, three oracles, judging, results.jsonl, shrinking
// of each new signature, reports) against the oracle calls alone for exactly the same generated cases.
#include <filesystem>
#include <fstream>

#include <benchmark/benchmark.h>

#include "cli/builtin_implementations.h"
#include "cli/jobs.h"
#include "cli/run.h"
#include "run/reproduce_token.h"
#include "run/run_options.h"
#include "harness/known_divergence.h"
#include "run/evaluate.h"
#include "properties/equivalence.h"
#include "properties/exec.h"
#include "properties/registry.h"

namespace bc {
namespace {

constexpr long kCasesPerProperty = 2000;  // the default conformance run's budget
const int registered = (register_builtin_implementations(), 0);

// The oracle properties on whose generated cases no library crashes (values_agree and addc_equivalence draw
// integer divisions by zero and INT64_MIN % -1, which kill a process that calls LibTorch or xtensor directly), so
// that the libraries can run in this process; or (`all`) every oracle property, as a real run has them.
std::vector<std::string> bench_properties(bool all) {
  std::vector<std::string> out;
  for (const Property& p : properties()) {
    if (p.check != Check::oracles && p.check != Check::equivalence) continue;
    if (all) {
      out.push_back(p.name);
      continue;
    }
    static auto probes = make_all_oracles(true);
    bool crashes = false;
    for (long i = 0; i < kCasesPerProperty && !crashes; ++i) {
      const Case c = p.gen(case_random(1, p.name, i)).value();
      for (auto& o : probes) crashes = crashes || o->run(c).status == Status::crash;
    }
    if (!crashes) out.push_back(p.name);
  }
  return out;
}

// Arg 0: libraries in process; 1: isolated, on the same cases; 2: isolated, every oracle property (a real run).
RunOptions bench_options(int variant) {
  RunOptions o;
  o.isolate = variant != 0;
  o.cases = kCasesPerProperty;
  o.seed = 1;
  o.out = (std::filesystem::temp_directory_path() / "broadcheck-bench-run").string();
  o.declarations = BC_SOURCE_DIR "/corpus/known_divergences.jsonl";
  o.progress = Progress::quiet;
  o.properties = bench_properties(variant == 2);
  return o;
}

std::string variant_label(const RunOptions& options) {
  return std::to_string(options.properties.size()) + " properties" +
         (options.isolate ? ", libraries isolated" : ", libraries in process");
}

// A whole run: generation, the oracles, judging, results.jsonl, coverage, shrinking of any new signature, reports.
void BM_FullRun(benchmark::State& state) {
  const RunOptions options = bench_options(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(run_conformance(options));
  state.SetItemsProcessed(state.iterations() * kCasesPerProperty * static_cast<long>(options.properties.size()));
  state.SetLabel(variant_label(options));
}
BENCHMARK(BM_FullRun)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// Cases a run of --time 8 gets through with --jobs N (every oracle property, libraries isolated, no case limit):
// the scaling over cores. Items are cases run, from the run's own summary.
void BM_JobsFixedTime(benchmark::State& state) {
  RunOptions options = bench_options(2);
  options.cases.reset();
  options.time_budget = 8;
  long cases = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(run_jobs(options, static_cast<int>(state.range(0))));
    std::ifstream in(options.out + "/summary.json");
    const nlohmann::json summary = nlohmann::json::parse(in);  // a named value: the loop must not outlive it
    for (const auto& [property, n] : summary.at("cases").items()) cases += n.get<long>();
  }
  state.SetItemsProcessed(cases);
  state.SetLabel(std::to_string(state.range(0)) + " job(s), " + std::to_string(options.properties.size()) +
                 " properties, libraries isolated");
}
BENCHMARK(BM_JobsFixedTime)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

// The oracle calls alone for exactly the cases the run generates, in the run's order (round robin over the
// properties: case 0 of each, then case 1, ...; property by property would flatter the oracles, whose caches then
// see one op for 2000 cases in a row), an equivalence case with its twin.
void BM_OracleCallsOnly(benchmark::State& state) {
  const RunOptions options = bench_options(static_cast<int>(state.range(0)));
  std::vector<Case> cases;
  for (long i = 0; i < kCasesPerProperty; ++i)
    for (const std::string& name : options.properties) {
      const Property* p = find_property(name);
      cases.push_back(p->gen(case_random(1, p->name, i), rc::kNominalSize).value());
      if (p->check == Check::equivalence)
        if (std::optional<Case> twin = unfused_twin(cases.back())) cases.push_back(*twin);
    }
  auto oracles = make_all_oracles(options.isolate);
  for (auto _ : state)
    for (const Case& c : cases) {
      for (auto& o : oracles) o->submit(c);  // as evaluate() does
      for (auto& o : oracles) benchmark::DoNotOptimize(o->run(c));
    }
  state.SetItemsProcessed(state.iterations() * kCasesPerProperty * static_cast<long>(options.properties.size()));
  state.SetLabel(variant_label(options));
}
BENCHMARK(BM_OracleCallsOnly)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

// Generation alone, the run's cases of every oracle property: with RapidCheck's recipe (arg 0, the shrink tree a
// finding needs) or the values only (arg 1, how a run draws them; properties/exec.h).
void BM_Generate(benchmark::State& state) {
  const RunOptions options = bench_options(2);
  std::vector<const Property*> chosen;
  for (const std::string& name : options.properties) chosen.push_back(find_property(name));
  for (auto _ : state) {
    std::optional<gen::ValuesOnly> values_only;
    if (state.range(0) == 1) values_only.emplace();
    for (long i = 0; i < kCasesPerProperty; ++i)
      for (const Property* p : chosen)
        benchmark::DoNotOptimize(p->gen(case_random(1, p->name, i), rc::kNominalSize).value());
  }
  state.SetItemsProcessed(state.iterations() * kCasesPerProperty * static_cast<long>(chosen.size()));
  state.SetLabel(state.range(0) == 1 ? "values only" : "with the recipe");
}
BENCHMARK(BM_Generate)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

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
