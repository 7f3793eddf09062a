#include "engine/inplace.h"

#include "engine/broadcast.h"
#include "engine/error_texts.h"

namespace bc {

Result<Shape> inplace_shape(const Shape& self, const std::vector<Shape>& others) {
  std::vector<Shape> all{self};
  all.insert(all.end(), others.begin(), others.end());
  Result<Shape> b = broadcast_shapes(all);
  if (!b.ok()) return b;
  if (b.value() != self)
    return make_error(ErrorText::inplace_broadcast, {self, b.value()});
  return self;
}

std::optional<Error> inplace_overlap_error(const Tensor& self, const std::vector<const Tensor*>& inputs) {
  if (has_internal_overlap(self.view())) return make_error(ErrorText::internal_overlap);
  for (const Tensor* in : inputs)
    if (in->shares_storage_with(self) && overlap(self.view(), in->view()) == Overlap::partial)
      return make_error(ErrorText::partial_overlap);
  return std::nullopt;
}

}  // namespace bc
