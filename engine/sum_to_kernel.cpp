#include "engine/sum_to_kernel.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace bc {
namespace {

// A contiguous run is summed in kLanes<T> lanes of T (8 SSE registers), in blocks of 16 elements per lane; each
// block's sum is added in double. Runs shorter than kLanes<T> (and the end of a longer run) are summed by a
// function specialised for their length.
template <class T>
constexpr int kLanes = 128 / sizeof(T);
template <class T>
constexpr int64_t kBlock = 16 * kLanes<T>;

// Pairwise sum of G values p[0], p[stride], ..., p[(G - 1) * stride] (G a power of two).
template <int G, class T>
inline T tree_sum(const T* p, int64_t stride) {
  if constexpr (G == 1) return p[0];
  else return tree_sum<G / 2>(p, stride) + tree_sum<G / 2>(p + (G / 2) * stride, stride);
}

// v[0] = the sum of v[0, N) (N a power of two), folding the upper half onto the lower half: vertical adds, which
// vectorise.
template <int N, class T>
inline void fold(T* v) {
  if constexpr (N > 1) {
    for (int j = 0; j < N / 2; ++j) v[j] += v[j + N / 2];
    fold<N / 2>(v);
  }
}

constexpr int floor_power_of_two(int n) { return n < 2 ? n : 2 * floor_power_of_two(n / 2); }

// The sum of exactly L values p[0, L): the part above the largest power of two P <= L is added onto the first
// lanes, then P lanes are folded.
template <int L, class T>
T short_sum(const T* p) {
  if constexpr (L == 0) {
    return T(0);
  } else {
    constexpr int P = floor_power_of_two(L);
    T v[P];
    for (int j = 0; j < P; ++j) v[j] = p[j];
    for (int j = 0; j < L - P; ++j) v[j] += p[P + j];
    fold<P>(v);
    return v[0];
  }
}

template <class T, int... L>
constexpr std::array<T (*)(const T*), sizeof...(L)> short_sums(std::integer_sequence<int, L...>) {
  return {&short_sum<L, T>...};
}
// kShortSum<T>[L] sums L values, for L < kLanes<T>.
template <class T>
constexpr auto kShortSum = short_sums<T>(std::make_integer_sequence<int, kLanes<T>>());

// Sum of p[0, n) for a 16-byte aligned p: blocks of at most kBlock elements in kLanes lanes, then the rest
// (< kLanes elements). Knowing the alignment, GCC adds straight from memory (one instruction per 16 bytes instead
// of a load and an add), which reads about 5% faster here.
template <class T>
double sum_aligned_run(const T* __restrict p_, int64_t n) {
  const T* p = static_cast<const T*>(__builtin_assume_aligned(p_, 16));
  constexpr int lanes = kLanes<T>;
  double total = 0;
  int64_t i = 0;
  while (n - i >= lanes) {
    T lane[lanes] = {};
    const int64_t end = i + std::min(kBlock<T>, (n - i) / lanes * lanes);
    for (; i < end; i += lanes)
      for (int j = 0; j < lanes; ++j) lane[j] += p[i + j];
    fold<lanes>(lane);
    total += static_cast<double>(lane[0]);
  }
  if (i < n) total += static_cast<double>(kShortSum<T>[n - i](p + i));
  return total;
}

// Sum of p[0, n): the elements before the first 16-byte boundary, then the aligned rest.
template <class T>
double sum_run(const T* p, int64_t n) {
  const auto misaligned = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p) % 16 / sizeof(T));
  const int64_t head = std::min<int64_t>(n, misaligned == 0 ? 0 : 16 / sizeof(T) - misaligned);
  const double total = head > 0 ? static_cast<double>(kShortSum<T>[head](p)) : 0.0;
  return total + sum_aligned_run(p + head, n - head);
}

// Tile [K, R]: acc[k] += the sum of the run src[k * n_r, (k + 1) * n_r).
template <class T>
void sum_runs(const T* src, int64_t n_k, int64_t n_r, double* acc) {
  for (int64_t k = 0; k < n_k; ++k) acc[k] += sum_run(src + k * n_r, n_r);
}

// The same for runs of a fixed short length L (< kLanes).
template <int L, class T>
void sum_short_runs(const T* src, int64_t n_k, int64_t, double* acc) {
  for (int64_t k = 0; k < n_k; ++k) acc[k] += static_cast<double>(short_sum<L>(src + k * L));
}

template <class T>
using Tile = void (*)(const T* src, int64_t n_outer, int64_t n_inner, double* acc);

template <class T, int... L>
constexpr std::array<Tile<T>, sizeof...(L)> short_run_tiles(std::integer_sequence<int, L...>) {
  return {&sum_short_runs<L, T>...};
}
// kShortRuns<T>[L]: tile [K, R] for R = L < kLanes<T>.
template <class T>
constexpr auto kShortRuns = short_run_tiles<T>(std::make_integer_sequence<int, kLanes<T>>());

// acc[k] += the pairwise sum of G rows of length n, row r at src + r * n.
template <int G, class T>
void add_rows(const T* __restrict src, int64_t n, double* __restrict acc) {
  for (int64_t k = 0; k < n; ++k) acc[k] += static_cast<double>(tree_sum<G>(src + k, n));
}

// Tile [R, K]: acc[k] += sum over r of src[r * n_k + k]; 8 rows at a time, then 4, 2, 1 for the rest.
template <class T>
void sum_rows(const T* src, int64_t n_r, int64_t n_k, double* acc) {
  int64_t r = 0;
  for (; n_r - r >= 8; r += 8) add_rows<8>(src + r * n_k, n_k, acc);
  if (n_r - r >= 4) add_rows<4>(src + r * n_k, n_k, acc), r += 4;
  if (n_r - r >= 2) add_rows<2>(src + r * n_k, n_k, acc), r += 2;
  if (n_r - r >= 1) add_rows<1>(src + r * n_k, n_k, acc);
}

// Tile [R, K] for a narrow K (< kNarrow): the tile is one contiguous run in which element i belongs to output
// i % K, summed in 8 * K lanes (lane j holds output j % K), 16 rows of lanes per block.
constexpr int kNarrow = 8;

template <int K, class T>
void sum_narrow_rows(const T* __restrict src, int64_t n_r, int64_t, double* __restrict acc) {
  constexpr int lanes = 8 * K;
  const int64_t n = n_r * K;
  int64_t i = 0;
  while (n - i >= lanes) {
    T lane[lanes] = {};
    const int64_t end = i + std::min<int64_t>(16 * lanes, (n - i) / lanes * lanes);
    for (; i < end; i += lanes)
      for (int j = 0; j < lanes; ++j) lane[j] += src[i + j];
    for (int j = 0; j < lanes; ++j) acc[j % K] += static_cast<double>(lane[j]);
  }
  for (; i < n; ++i) acc[i % K] += static_cast<double>(src[i]);  // fewer than 8 rows
}

template <class T, int... K>
constexpr std::array<Tile<T>, sizeof...(K)> narrow_row_tiles(std::integer_sequence<int, K...>) {
  return {&sum_narrow_rows<K, T>...};
}
// kNarrowRows<T>[K]: tile [R, K] for K < kNarrow (K = 0 is never used: a size-0 tile is not reduced).
template <class T>
constexpr auto kNarrowRows = narrow_row_tiles<T>(std::make_integer_sequence<int, kNarrow>());

// acc (numel(to) doubles, zeroed) += src reduced over the merged view `m` of a non-empty `from`.
template <class T>
void reduce_merged(const T* src, const MergedAxes& m, double* acc) {
  const std::vector<int64_t>& size = m.sizes;
  const size_t n = size.size();
  // The tile: the last two merged axes (one kept, one reduced). With fewer axes the missing one has size 1.
  const size_t outer = n >= 2 ? n - 2 : 0;
  const bool runs = n >= 1 && m.reduced(n - 1);  // tile [K, R], else [R, K]
  const int64_t inner = n >= 1 ? size[n - 1] : 1;
  const int64_t next = n >= 2 ? size[n - 2] : 1;
  const int64_t tile_size = inner * next;
  const int64_t tile_kept = runs ? next : inner;

  // Outer axes: output step of each (0 for reduced ones), and the number of tiles.
  std::vector<int64_t> out_step(outer, 0), index(outer, 0);
  int64_t kept_below = tile_kept, tiles = 1;
  for (size_t d = outer; d-- > 0;) {
    if (!m.reduced(d)) out_step[d] = kept_below, kept_below *= size[d];
    tiles *= size[d];
  }

  const Tile<T> tile = runs ? (inner < kLanes<T> ? kShortRuns<T>[inner] : &sum_runs<T>)
                             : (inner < kNarrow ? kNarrowRows<T>[inner] : &sum_rows<T>);
  int64_t out = 0;
  for (int64_t t = 0; t < tiles; ++t) {
    tile(src + t * tile_size, next, inner, acc + out);
    for (size_t d = outer; d-- > 0;) {  // odometer over the outer axes
      if (++index[d] < size[d]) {
        out += out_step[d];
        break;
      }
      out -= (size[d] - 1) * out_step[d];
      index[d] = 0;
    }
  }
}

}  // namespace

MergedAxes merge_sum_to_axes(const Shape& from, const Shape& to) {
  MergedAxes m;
  const size_t leading = from.size() - to.size();
  bool last_reduced = false;
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] == 1) continue;
    const bool reduced = i < leading || to[i - leading] == 1;
    if (!m.sizes.empty() && reduced == last_reduced) {
      m.sizes.back() *= from[i];
    } else {
      if (m.sizes.empty()) m.first_reduced = reduced;
      m.sizes.push_back(from[i]);
      last_reduced = reduced;
    }
  }
  return m;
}

template <class T>
void sum_to_kernel(const T* src, const Shape& from, const Shape& to, T* dst) {
  const auto out_n = static_cast<size_t>(numel(to));
  if (numel(from) == numel(to)) {  // nothing to sum: every reduced axis has size 1
    std::copy(src, src + out_n, dst);
    return;
  }
  std::vector<double> buffer;
  double* acc = nullptr;
  if constexpr (std::is_same_v<T, double>) {
    acc = dst;
  } else {
    buffer.resize(out_n);
    acc = buffer.data();
  }
  std::fill(acc, acc + out_n, 0.0);
  if (numel(from) > 0) reduce_merged(src, merge_sum_to_axes(from, to), acc);
  if constexpr (!std::is_same_v<T, double>)
    for (size_t k = 0; k < out_n; ++k) dst[k] = static_cast<T>(acc[k]);
}

template void sum_to_kernel<float>(const float*, const Shape&, const Shape&, float*);
template void sum_to_kernel<double>(const double*, const Shape&, const Shape&, double*);

}  // namespace bc
