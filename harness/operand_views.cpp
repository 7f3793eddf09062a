#include "harness/operand_views.h"

#include <utility>

#include "engine/overlap.h"

namespace bc {

std::vector<OperandPlan> plan_views(const Case& c) {
  std::vector<OperandPlan> plans;
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    OperandPlan p;
    p.dtype = dtype_of(c, k);
    p.layout = layout_of(c, k);
    p.shape = c.shapes[k];
    p.base_shape = p.shape;
    if (const Number* n = number_of(c, k)) p.number = *n;  // shape [], contiguous (layout_of)
    const size_t r = p.shape.size();
    if (p.layout == Layout::transposed && r < 2) p.layout = Layout::contiguous;
    if (p.layout == Layout::strided && r < 1) p.layout = Layout::contiguous;
    size_t stretched = r;  // the dim an expanded operand stretches: the first of size > 1
    for (size_t d = 0; d < r && stretched == r; ++d)
      if (p.shape[d] > 1) stretched = d;
    if (p.layout == Layout::expanded && stretched == r) p.layout = Layout::contiguous;
    int64_t windows = 0;  // the first operand's overlapping layout: its dims of size > 1
    for (int64_t d : p.shape) windows += d > 1 ? 1 : 0;
    if (p.layout == Layout::overlapping && k == 0 && windows < 2) p.layout = Layout::contiguous;
    if (p.layout == Layout::overlapping && k > 0) {
      const int64_t room = numel(plans.front().base_shape);
      // A view reinterprets nothing: it needs the first operand's dtype, and room in its storage.
      if (p.dtype != plans.front().dtype || numel(p.shape) > room || numel(p.shape) == 0) p.layout = Layout::contiguous;
    }
    switch (p.layout) {
      case Layout::contiguous:
        p.strides = contiguous_strides(p.shape);
        break;
      case Layout::transposed:  // allocate with the last two dims swapped, then view them swapped back
        std::swap(p.base_shape[r - 1], p.base_shape[r - 2]);
        p.strides = contiguous_strides(p.base_shape);
        std::swap(p.strides[r - 1], p.strides[r - 2]);
        break;
      case Layout::strided:  // every other element of a last dim twice as long
        p.base_shape[r - 1] *= 2;
        p.strides = contiguous_strides(p.base_shape);
        p.strides[r - 1] *= 2;
        break;
      case Layout::expanded:  // a size-1 dim stretched with stride 0
        p.base_shape[stretched] = 1;
        p.strides = contiguous_strides(p.base_shape);
        p.strides[stretched] = 0;
        break;
      case Layout::overlapping:
        if (k == 0) {  // the first operand: a sliding window over its own storage, every stride 1
          int64_t length = 1;
          for (int64_t d : p.shape) length += d - 1;
          p.base_shape = {length};
          p.strides = Shape(r, 1);
          break;
        }
        p.views_operand = 0;  // a contiguous view over the first operand's storage
        p.base_shape = {};
        p.strides = contiguous_strides(p.shape);
        break;
    }
    plans.push_back(p);
  }
  return plans;
}

}  // namespace bc
