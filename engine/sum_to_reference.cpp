#include "engine/sum_to_reference.h"

#include <vector>

namespace bc {

template <class T>
void reference_sum_to(const T* src, const Shape& from, const Shape& to, T* dst) {
  const size_t leading = from.size() - to.size();
  const Shape to_strides = contiguous_strides(to);
  std::vector<double> acc(static_cast<size_t>(numel(to)), 0.0);
  std::vector<int64_t> index(from.size());
  for (int64_t i = 0; i < numel(from); ++i) {
    int64_t rest = i;
    for (size_t d = from.size(); d-- > 0;) {
      index[d] = rest % from[d];
      rest /= from[d];
    }
    int64_t j = 0;
    for (size_t d = leading; d < from.size(); ++d)
      if (to[d - leading] != 1) j += index[d] * to_strides[d - leading];
    acc[static_cast<size_t>(j)] += static_cast<double>(src[i]);
  }
  for (size_t j = 0; j < acc.size(); ++j) dst[j] = static_cast<T>(acc[j]);
}

template void reference_sum_to<float>(const float*, const Shape&, const Shape&, float*);
template void reference_sum_to<double>(const double*, const Shape&, const Shape&, double*);

}  // namespace bc
