#include "engine/expand.h"

#include "engine/dtype.h"
#include "engine/error_texts.h"

namespace bc {

bool is_expandable_to(const Shape& shape, const Shape& target) {
  if (shape.size() > target.size()) return false;
  const size_t pad = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && shape[i] != target[pad + i]) return false;
  return true;
}

Result<Geometry> expand_geometry(const Shape& sizes, const Shape& strides, const Shape& target) {
  // LibTorch prints the tensor's type too ("CPUFloatType{[3, 1]}"); the shape-level cases all use float32 tensors.
  if (target.size() < sizes.size()) {
    const std::string type = torch_type_string(DType::float32);
    return make_error(ErrorText::expand_too_few_sizes, {type, sizes, target, target.size(), sizes.size()});
  }
  const size_t rank = target.size(), pad = rank - sizes.size();
  Geometry g{target, Shape(rank, 0)};  // a rank-0 tensor takes the target as given, every stride 0
  if (!sizes.empty()) {
    // Innermost dim first, as LibTorch walks it, so the error reported is the rightmost offending dim.
    for (size_t i = rank; i-- > 0;) {
      const bool exists = i >= pad;
      int64_t size = exists ? sizes[i - pad] : 1;
      // A new leading dim continues the layout outwards, so a new dim of size 1 gets a non-zero stride.
      int64_t stride = exists ? strides[i - pad] : g.sizes[i + 1] * g.strides[i + 1];
      int64_t want = target[i];
      if (want == -1) {
        if (!exists)
          return make_error(ErrorText::expand_negative_leading, {want, i});
        want = size;
      }
      if (size != want) {
        if (size != 1)
          return make_error(ErrorText::expand_mismatch, {want, size, i, target, sizes});
        size = want;
        stride = 0;
      }
      g.sizes[i] = size;
      g.strides[i] = stride;
    }
  }
  // Sizes other than -1 are not checked above; LibTorch rejects a negative one when it counts the elements.
  for (int64_t s : g.sizes)
    if (s < 0) return make_error(ErrorText::numel_overflow);
  return g;
}

Result<Shape> expand_shape(const Shape& sizes, const Shape& target) {
  Result<Geometry> g = expand_geometry(sizes, contiguous_strides(sizes), target);
  if (!g.ok()) return g.error();
  return g.value().sizes;
}

}  // namespace bc
