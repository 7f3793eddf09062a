#include "engine/overlap.h"

#include <algorithm>

namespace bc {

std::vector<int64_t> element_offsets(const View& v) {
  const int64_t n = numel(v.sizes);
  std::vector<int64_t> out;
  if (n == 0) return out;
  out.reserve(static_cast<size_t>(n));
  std::vector<int64_t> index(v.sizes.size(), 0);
  int64_t at = v.offset;
  for (int64_t k = 0; k < n; ++k) {
    out.push_back(at);
    // Odometer step over the index, innermost dim first, keeping the running offset.
    for (size_t d = v.sizes.size(); d-- > 0;) {
      if (++index[d] < v.sizes[d]) {
        at += v.strides[d];
        break;
      }
      at -= (v.sizes[d] - 1) * v.strides[d];
      index[d] = 0;
    }
  }
  return out;
}

namespace {

// Dims that matter for where elements lie: size > 1.
std::vector<std::pair<int64_t, int64_t>> moving_dims(const View& v) {  // (stride, size)
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (size_t d = 0; d < v.sizes.size(); ++d)
    if (v.sizes[d] > 1) dims.push_back({v.strides[d], v.sizes[d]});
  return dims;
}

std::pair<int64_t, int64_t> span(const View& v) {  // [first, last] location touched
  int64_t last = v.offset;
  for (size_t d = 0; d < v.sizes.size(); ++d) last += (v.sizes[d] - 1) * v.strides[d];
  return {v.offset, last};
}

}  // namespace

bool has_internal_overlap(const View& v) {
  if (numel(v.sizes) <= 1) return false;
  auto dims = moving_dims(v);
  std::sort(dims.begin(), dims.end());
  // Sufficient for no overlap: each stride steps past everything the smaller dims can reach (a nested layout).
  int64_t reach = 0;
  bool nested = true;
  for (const auto& [stride, size] : dims) {
    if (stride == 0) return true;
    if (stride <= reach) nested = false;
    reach += (size - 1) * stride;
  }
  if (nested) return false;
  // Otherwise decide by listing the locations (cases are small; see the resource caps).
  std::vector<int64_t> offsets = element_offsets(v);
  std::sort(offsets.begin(), offsets.end());
  return std::adjacent_find(offsets.begin(), offsets.end()) != offsets.end();
}

Overlap overlap(const View& a, const View& b) {
  if (numel(a.sizes) == 0 || numel(b.sizes) == 0) return Overlap::none;
  if (a.offset == b.offset && a.sizes == b.sizes && moving_dims(a) == moving_dims(b)) return Overlap::full;
  const auto [a_first, a_last] = span(a);
  const auto [b_first, b_last] = span(b);
  if (a_last < b_first || b_last < a_first) return Overlap::none;
  std::vector<int64_t> x = element_offsets(a), y = element_offsets(b);
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  std::vector<int64_t> shared;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(shared));
  return shared.empty() ? Overlap::none : Overlap::partial;
}

}  // namespace bc
