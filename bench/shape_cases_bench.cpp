// Shape-property cases per second: the same pre-generated cases of each property, judged on all three oracles
// (what `broadcheck run` does per case, without writing results), and each oracle alone for comparison.
#include <map>

#include <benchmark/benchmark.h>

#include "cli/builtin_implementations.h"
#include "harness/known_divergence.h"
#include "run/evaluate.h"
#include "properties/registry.h"

namespace bc {
namespace {

constexpr int kCases = 512;

const std::vector<Case>& cases_of(const std::string& property) {
  static std::map<std::string, std::vector<Case>> cache;
  auto& cases = cache[property];
  if (cases.empty()) {
    const Property* p = find_property(property);
    for (uint64_t i = 0; i < kCases; ++i) cases.push_back(p->gen(rc::Random(rc::Random::Key{1, i, 0, 0})).value());
  }
  return cases;
}

std::vector<std::unique_ptr<Oracle>> all_oracles() { return make_all_oracles(false); }

// Every property, every case judged on the three oracles.
void BM_AllOracles(benchmark::State& state, const std::string& property) {
  auto oracles = all_oracles();
  const auto declarations = load_declarations(BC_SOURCE_DIR "/corpus/known_divergences.jsonl");
  const auto& cases = cases_of(property);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(evaluate(property, cases[i++ % cases.size()], oracles, declarations));
  }
  state.SetItemsProcessed(state.iterations());
}

// One oracle alone on the same cases: where the time goes.
void BM_OneOracle(benchmark::State& state, const std::string& property, int which) {
  auto oracles = all_oracles();
  const auto& cases = cases_of(property);
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(oracles[which]->run(cases[i++ % cases.size()]));
  state.SetItemsProcessed(state.iterations());
}

const int registered = [] {
  register_builtin_implementations();
  for (const Property& p : properties()) {
    benchmark::RegisterBenchmark(("all_oracles/" + p.name).c_str(), BM_AllOracles, p.name);
    if (p.check != Check::oracles) continue;
    for (int k = 0; k < static_cast<int>(builtin_implementations().size()); ++k)
      benchmark::RegisterBenchmark((builtin_implementations()[k].info.name + "_only/" + p.name).c_str(), BM_OneOracle,
                                   p.name, k);
  }
  return 0;
}();

}  // namespace
}  // namespace bc

BENCHMARK_MAIN();
