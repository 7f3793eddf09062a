// The plain reduction that the gradient kernel (engine/sum_to_kernel.h) is tested against: every element of
// `from` is visited in row-major order, its index is unravelled and mapped onto `to` (leading axes dropped, axes
// where `to` has size 1 pinned to 0), and it is added there. No merging, no blocking; accumulated in double and
// converted to T once at the end.
#pragma once

#include "engine/shape.h"

namespace bc {

// dst[0, numel(to)) = src[0, numel(from)) summed to `to`; both contiguous row-major. Precondition: `to` expands to
// `from`.
template <class T>
void reference_sum_to(const T* src, const Shape& from, const Shape& to, T* dst);

extern template void reference_sum_to<float>(const float*, const Shape&, const Shape&, float*);
extern template void reference_sum_to<double>(const double*, const Shape&, const Shape&, double*);

}  // namespace bc
