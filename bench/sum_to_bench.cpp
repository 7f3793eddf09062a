// The gradient reduction kernel (engine/sum_to_kernel.h) against LibTorch's at::sum_to, one thread, float32 and
// float64, on three reductions: [1024, 1024] -> [1024] (kept inner axis), [1024, 1024] -> [1024, 1] (reduced inner
// axis), [64, 64, 64, 16] -> [64, 1, 64, 1] (alternating K R K R). Throughput is the input read (bytes per
// second). read_bandwidth/<size> is a plain sum over a float buffer of that size, to quote each result as a
// fraction of what this machine reads at the same size (the inputs are 4 to 32 MiB: L3 here is 32 MiB).
// docs/notes/sum-to-kernel.md has the figures.
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "engine/sum_to_kernel.h"

namespace bc {
namespace {

struct Reduction {
  const char* name;
  Shape from, to;
};

const std::vector<Reduction>& reductions() {
  static const std::vector<Reduction> all = {
      {"1024x1024->1024", {1024, 1024}, {1024}},
      {"1024x1024->1024x1", {1024, 1024}, {1024, 1}},
      {"64x64x64x16->64x1x64x1", {64, 64, 64, 16}, {64, 1, 64, 1}},
  };
  return all;
}

// The input of one reduction: uniform in [-1, 1), in a tensor from LibTorch's allocator (64-byte aligned), which
// both implementations read, so they see the same bytes at the same addresses.
template <class T>
at::Tensor input(const Shape& sizes) {
  const at::ScalarType type = sizeof(T) == 4 ? at::kFloat : at::kDouble;
  at::manual_seed(42);
  return at::rand(at::IntArrayRef(sizes), at::TensorOptions().dtype(type)) * 2 - 1;
}

template <class T>
void BM_Engine(benchmark::State& state, const Reduction& r) {
  const at::Tensor src = input<T>(r.from);
  std::vector<T> dst(static_cast<size_t>(numel(r.to)));
  for (auto _ : state) {
    sum_to_kernel(src.data_ptr<T>(), r.from, r.to, dst.data());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * numel(r.from) * static_cast<int64_t>(sizeof(T)));
}

template <class T>
void BM_Torch(benchmark::State& state, const Reduction& r) {
  const at::Tensor src = input<T>(r.from);
  for (auto _ : state) {
    at::Tensor out = at::sum_to(src, at::IntArrayRef(r.to));
    benchmark::DoNotOptimize(out.data_ptr());
  }
  state.SetBytesProcessed(state.iterations() * numel(r.from) * static_cast<int64_t>(sizeof(T)));
}

// The read bandwidth at a buffer size: a float sum in 32 lanes (8 SSE registers), which GCC vectorises.
void BM_ReadBandwidth(benchmark::State& state) {
  const at::Tensor src = input<float>({state.range(0) / static_cast<int64_t>(sizeof(float))});
  const float* buffer = src.data_ptr<float>();
  const int64_t n = src.numel();
  for (auto _ : state) {
    float lane[32] = {};
    for (int64_t i = 0; i + 32 <= n; i += 32)
      for (int64_t j = 0; j < 32; ++j) lane[j] += buffer[i + j];
    float total = 0;
    for (float x : lane) total += x;
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

const int registered = [] {
  for (int64_t mib : {4, 8, 16, 32, 64})
    benchmark::RegisterBenchmark(("read_bandwidth/" + std::to_string(mib) + "MiB").c_str(), BM_ReadBandwidth)
        ->Arg(mib << 20);
  for (const Reduction& r : reductions()) {
    const std::string name = r.name;
    benchmark::RegisterBenchmark(("engine/f32/" + name).c_str(), BM_Engine<float>, r);
    benchmark::RegisterBenchmark(("torch/f32/" + name).c_str(), BM_Torch<float>, r);
    benchmark::RegisterBenchmark(("engine/f64/" + name).c_str(), BM_Engine<double>, r);
    benchmark::RegisterBenchmark(("torch/f64/" + name).c_str(), BM_Torch<double>, r);
  }
  return 0;
}();

}  // namespace
}  // namespace bc

int main(int argc, char** argv) {
  at::set_num_threads(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
