// The cost of crash isolation: the engine oracle called directly against the same oracle in an isolated worker
// (oracles/isolated_oracle.h) and behind the adapter protocol (one case per request, a window of requests queued,
// or all in one batch), on the same 512 cases. The difference per case is what isolation adds to every oracle
// call: two pipe messages, the JSON round trips and two context switches (docs/notes/crash-isolation.md).
#include <algorithm>
#include <chrono>
#include <vector>

#include <benchmark/benchmark.h>

#include "oracles/engine_oracle.h"
#include "oracles/external_oracle.h"
#include "oracles/isolated_oracle.h"

namespace bc {
namespace {

// "add" on shape pairs like [[2, 3], [3]], varied in rank and sizes; about one in six does not broadcast, so
// error outcomes (with their messages) cross the pipe too.
std::vector<Case> bench_cases() {
  std::vector<Case> cases;
  for (int i = 0; i < 512; ++i) {
    Case c;
    c.op = Op::add;
    Shape a = {1 + i % 4, 1 + (i / 4) % 5};
    if (i % 3 == 0) a.insert(a.begin(), 1 + (i / 3) % 3);
    Shape b = {a.back()};
    if (i % 2) b.insert(b.begin(), 1);
    if (i % 6 == 5) b.back() += 1;  // incompatible trailing size
    c.shapes = {a, b};
    cases.push_back(c);
  }
  return cases;
}

// Wall time (UseRealTime below): the caller waits for the worker, and CPU time counts this process only.
void run_all(benchmark::State& state, Oracle& oracle) {
  const std::vector<Case> cases = bench_cases();
  for (const Case& c : cases) benchmark::DoNotOptimize(oracle.run(c));  // warm up (and start the worker)
  for (auto _ : state)
    for (const Case& c : cases) benchmark::DoNotOptimize(oracle.run(c));
  state.SetItemsProcessed(state.iterations() * static_cast<long>(cases.size()));
}

void BM_EngineDirect(benchmark::State& state) {
  auto oracle = make_engine_oracle();
  run_all(state, *oracle);
}
BENCHMARK(BM_EngineDirect)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_EngineIsolated(benchmark::State& state) {
  auto oracle = make_isolated_oracle(make_engine_oracle, std::chrono::milliseconds(5000));
  run_all(state, *oracle);
}
BENCHMARK(BM_EngineIsolated)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The same engine behind the adapter protocol (docs/protocol.md): build/engine_adapter, one JSON line each way
// per case; then the same cases sent as one batch request (one line each way for all 512).
void BM_EngineProtocol(benchmark::State& state) {
  ExternalOracle oracle("served", BC_BINARY_DIR "/engine_adapter", std::chrono::milliseconds(5000));
  run_all(state, oracle);
}
BENCHMARK(BM_EngineProtocol)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The same, with the cases submitted in windows of 32 before they are run, as a run does (run/runner.cpp): the
// adapter computes the window's cases back to back while this process reads the answers.
void BM_EngineProtocolQueued(benchmark::State& state) {
  ExternalOracle oracle("served", BC_BINARY_DIR "/engine_adapter", std::chrono::milliseconds(5000));
  const std::vector<Case> cases = bench_cases();
  constexpr size_t kWindow = 32;
  auto run_windows = [&] {
    for (size_t at = 0; at < cases.size(); at += kWindow) {
      const size_t end = std::min(cases.size(), at + kWindow);
      for (size_t k = at; k < end; ++k) oracle.submit(cases[k]);
      for (size_t k = at; k < end; ++k) benchmark::DoNotOptimize(oracle.run(cases[k]));
    }
  };
  run_windows();  // warm up (and start the adapter)
  for (auto _ : state) run_windows();
  state.SetItemsProcessed(state.iterations() * static_cast<long>(cases.size()));
}
BENCHMARK(BM_EngineProtocolQueued)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_EngineProtocolBatch(benchmark::State& state) {
  ExternalOracle oracle("served", BC_BINARY_DIR "/engine_adapter", std::chrono::milliseconds(5000));
  const std::vector<Case> cases = bench_cases();
  benchmark::DoNotOptimize(oracle.run_batch(cases));
  for (auto _ : state) benchmark::DoNotOptimize(oracle.run_batch(cases));
  state.SetItemsProcessed(state.iterations() * static_cast<long>(cases.size()));
}
BENCHMARK(BM_EngineProtocolBatch)->Unit(benchmark::kMicrosecond)->UseRealTime();

// What the wrapper does to each case besides the pipe: the JSON round trips of case and outcome (as CBOR, the
// wrapper's wire encoding), in this process; the rest of the isolated cost is the pipe and the process switches.
void BM_EngineWithWireRoundTripsOnly(benchmark::State& state) {
  auto oracle = make_engine_oracle();
  const std::vector<Case> cases = bench_cases();
  for (auto _ : state)
    for (const Case& c : cases) {
      const Case there = case_from_json(nlohmann::json::from_cbor(nlohmann::json::to_cbor(to_json(c))));
      const Outcome back =
          outcome_from_json(nlohmann::json::from_cbor(nlohmann::json::to_cbor(to_json(oracle->run(there)))));
      benchmark::DoNotOptimize(back);
    }
  state.SetItemsProcessed(state.iterations() * static_cast<long>(cases.size()));
}
BENCHMARK(BM_EngineWithWireRoundTripsOnly)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace bc

BENCHMARK_MAIN();
