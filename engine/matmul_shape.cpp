#include "engine/matmul_shape.h"

#include <algorithm>

#include "engine/broadcast.h"
#include "engine/error_texts.h"

namespace bc {
namespace {

// NumPy's result shape once the operands are known to fit.
Shape numpy_result(const Shape& a, const Shape& b, const Shape& batch) {
  Shape out = batch;
  if (a.size() > 1) out.push_back(a[a.size() - 2]);
  if (b.size() > 1) out.push_back(b.back());
  return out;
}

Shape drop_last(const Shape& s, size_t n) { return Shape(s.begin(), s.end() - static_cast<std::ptrdiff_t>(n)); }

}  // namespace

Result<Shape> matmul_shape(const Shape& a, const Shape& b) {
  const size_t ra = a.size(), rb = b.size();
  if (ra == 0 || rb == 0)
    return make_error(ErrorText::matmul_zero_dim, {ra, rb});
  if (ra == 1 && rb == 1) {  // dot
    if (a[0] != b[0])
      return make_error(ErrorText::dot_sizes, {a[0], b[0]});
    return Shape{};
  }
  if (ra == 2 && rb == 1) {  // mv
    if (a[1] != b[0]) return make_error(ErrorText::mv_sizes, {a[0], a[0], a[1], b[0]});
    return Shape{a[0]};
  }
  if (ra == 1 && rb == 2) {  // row vector @ matrix, through mm
    if (a[0] != b[0]) return make_error(ErrorText::mm_sizes, {1, a[0], b[0], b[1]});
    return Shape{b[1]};
  }
  if (ra == 2 && rb == 2) {  // mm
    if (a[1] != b[0]) return make_error(ErrorText::mm_sizes, {a[0], a[1], b[0], b[1]});
    return Shape{a[0], b[1]};
  }
  // One operand has batch dims and the other is a vector or a matrix: LibTorch folds the batch into the rows of
  // one big mm/mv. When the right operand is the batched one, it works on the transposes: t1 = b^T, t2 = a^T.
  if ((ra >= 3 && rb <= 2) || (rb >= 3 && ra <= 2)) {
    const bool transpose = rb > ra;
    Shape t1 = transpose ? b : a;
    if (transpose) std::swap(t1[t1.size() - 1], t1[t1.size() - 2]);
    Shape t2 = transpose ? a : b;
    if (transpose && t2.size() == 2) std::swap(t2[0], t2[1]);
    const int64_t rows = numel(drop_last(t1, 1)), inner = t1.back();
    if (t2.size() == 2 && inner != t2[0]) return make_error(ErrorText::mm_sizes, {rows, inner, t2[0], t2[1]});
    if (t2.size() == 1 && inner != t2[0]) return make_error(ErrorText::mv_sizes, {rows, rows, inner, t2[0]});
    return numpy_result(a, b, drop_last(transpose ? b : a, 2));
  }
  // Both batched (or batched against a 1-D/2-D operand LibTorch chose not to fold): broadcast the batch dims,
  // then one bmm over the flattened batch.
  const int64_t k1 = a.back(), k2 = rb > 1 ? b[rb - 2] : b[0];
  Result<Shape> batch = broadcast_shapes(drop_last(a, std::min<size_t>(ra, 2)), drop_last(b, std::min<size_t>(rb, 2)));
  if (!batch.ok()) return batch;
  if (k1 != k2) {
    const int64_t nb = numel(batch.value());
    return make_error(ErrorText::bmm_sizes, {nb, k1, nb, k2});
  }
  return numpy_result(a, b, batch.value());
}

}  // namespace bc
