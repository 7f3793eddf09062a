#include "engine/broadcast.h"

#include <algorithm>

#include "engine/error_texts.h"

namespace bc {

Result<Shape> broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  // From the innermost dim outwards, as LibTorch's infer_size checks them: with several conflicts, the message names
  // the innermost one.
  for (size_t i = rank; i-- > 0;) {
    // i counts result dims from the left; each operand is left-padded with 1s.
    const size_t pad_a = rank - a.size(), pad_b = rank - b.size();
    const int64_t sa = i < pad_a ? 1 : a[i - pad_a];
    const int64_t sb = i < pad_b ? 1 : b[i - pad_b];
    if (sa != sb && sa != 1 && sb != 1) {
      return make_error(ErrorText::broadcast_mismatch, {sa, sb, i});
    }
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

Result<Shape> broadcast_shapes(const std::vector<Shape>& shapes) {
  if (shapes.empty()) return Shape{};
  Shape acc = shapes.front();
  for (size_t i = 1; i < shapes.size(); ++i) {
    Result<Shape> next = broadcast_shapes(acc, shapes[i]);
    if (!next.ok()) return next;
    acc = next.value();
  }
  return acc;
}

Result<Shape> broadcast_sizes(const std::vector<Shape>& shapes) {
  for (const Shape& shape : shapes)
    for (int64_t size : shape)
      if (size < 0) return make_error(ErrorText::negative_dimension, {size, shape});
  return broadcast_shapes(shapes);
}

}  // namespace bc
