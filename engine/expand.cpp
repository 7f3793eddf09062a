#include "engine/expand.h"

namespace bc {

bool is_expandable_to(const Shape& shape, const Shape& target) {
  if (shape.size() > target.size()) return false;
  const size_t pad = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && shape[i] != target[pad + i]) return false;
  return true;
}

// LibTorch prints the tensor as "CPUFloatType{[3, 1]}"; the shape-level cases all use float32 tensors.
static std::string too_few_sizes_message(const Shape& sizes, const Shape& target) {
  return "expand(CPUFloatType{" + format_shape(sizes) + "}, size=" + format_shape(target) +
         "): the number of sizes provided (" + std::to_string(target.size()) +
         ") must be greater or equal to the number of dimensions in the tensor (" + std::to_string(sizes.size()) +
         ")";
}

Result<Geometry> expand_geometry(const Shape& sizes, const Shape& strides, const Shape& target) {
  if (target.size() < sizes.size())
    return Error{ErrorKind::expand, too_few_sizes_message(sizes, target)};
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
          return Error{ErrorKind::expand, "The expanded size of the tensor (-1) isn't allowed in a leading, "
                                          "non-existing dimension " + std::to_string(i)};
        want = size;
      }
      if (size != want) {
        if (size != 1)
          return Error{ErrorKind::expand, "The expanded size of the tensor (" + std::to_string(want) +
                                              ") must match the existing size (" + std::to_string(size) +
                                              ") at non-singleton dimension " + std::to_string(i) +
                                              ".  Target sizes: " + format_shape(target) +
                                              ".  Tensor sizes: " + format_shape(sizes)};
        size = want;
        stride = 0;
      }
      g.sizes[i] = size;
      g.strides[i] = stride;
    }
  }
  // Sizes other than -1 are not checked above; LibTorch rejects a negative one when it counts the elements.
  for (int64_t s : g.sizes)
    if (s < 0) return Error{ErrorKind::invalid_argument, "numel: integer multiplication overflow"};
  return g;
}

Result<Shape> expand_shape(const Shape& sizes, const Shape& target) {
  Result<Geometry> g = expand_geometry(sizes, contiguous_strides(sizes), target);
  if (!g.ok()) return g.error();
  return g.value().sizes;
}

}  // namespace bc
