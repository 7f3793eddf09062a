// The gradient reduction kernel: sums a contiguous row-major buffer of shape `from` to shape `to` (a shape that
// expands to `from`), as autograd's reduce_grad does with at::sum_to (seed 000), by seed 004's scheme:
//
// 1. Label each axis of `from` reduced (R: a leading extra axis, or `to` has 1 where `from` has not) or kept (K).
//    Axes of size 1 are dropped: they hold one index, so their label does not matter.
// 2. Merge each run of equal labels into one axis (the product of the sizes); labels then alternate, so the view is
//    fixed by its sizes and its first label. Seed 004's x: [2, 2, 2, 2, 2] -> [2, 2, 1, 2, 2] is KKRKK -> K R K
//    of sizes [4, 2, 4].
// 3. Reduce over the merged view. The last two merged axes form a tile with a dedicated inner loop:
//      [.., R, K]  each output row gets whole input rows added, 8 rows at a time (a narrow K < 8 is instead one
//                  contiguous run summed in 8 * K lanes, lane j feeding output j % K);
//      [.., K, R]  each output is the sum of one contiguous run (runs shorter than the lane count have a loop
//                  specialised for their length);
//    the axes before the tile (an alternating [.., R, K, R, K] prefix) are walked by an odometer that moves the
//    output offset along the kept ones only. Nothing to sum (numel(to) == numel(from)) is a copy.
//    docs/notes/sum-to-kernel.md has the cases and the measurements.
//
// Accumulation: every output is accumulated in double. Partial sums of float inputs stay in float only over short
// blocks (a tree over 8 rows; or 16 elements in each of 32 lanes, then a tree over the lanes), and each block's sum
// is added in double, so an input goes through at most 20 float additions whatever the length of the reduction,
// and the result is rounded to float once: |error| <= 21 * 2^-24 * (sum of the magnitudes of the output's inputs).
// On sums of ~1e3 terms (the benchmark's) that is far inside torch.testing's float32 tolerance of the exact sum
// (rtol 1.3e-6, atol 1e-5); so is a constant gradient over 4M elements. A long sum that cancels to near 0 can miss
// that fixed tolerance, as LibTorch's own float32 sum does, more often (docs/notes/sum-to-kernel.md). Full double
// accumulation would cost a conversion per element, about half the float32 throughput with SSE2.
// tests/engine/sum_to_kernel_test.cpp checks all of this against a double reference.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/shape.h"

namespace bc {

// Seed 004's merged view of a reduction of `from` to `to`: merged axis sizes, outermost first, labels
// alternating from `first_reduced`. Rank 0 (every axis of size 1) is an ordinary case; a size-0 axis merges like
// any other (the product is 0).
struct MergedAxes {
  std::vector<int64_t> sizes;
  bool first_reduced = false;
  bool reduced(size_t axis) const { return first_reduced == (axis % 2 == 0); }
};

// Precondition: `to` expands to `from` (plan_sum_to checks it and says why when it does not).
MergedAxes merge_sum_to_axes(const Shape& from, const Shape& to);

// dst[0, numel(to)) = src[0, numel(from)) summed to `to`; both contiguous row-major and not overlapping.
// Precondition: `to` expands to `from`. A reduced axis of size 0 gives zeros; `to` = [] sums everything.
template <class T>
void sum_to_kernel(const T* src, const Shape& from, const Shape& to, T* dst);

extern template void sum_to_kernel<float>(const float*, const Shape&, const Shape&, float*);
extern template void sum_to_kernel<double>(const double*, const Shape&, const Shape&, double*);

}  // namespace bc
