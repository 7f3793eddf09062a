#include "engine/inplace.h"

#include "engine/broadcast.h"

namespace bc {

Result<Shape> inplace_shape(const Shape& self, const std::vector<Shape>& others) {
  std::vector<Shape> all{self};
  all.insert(all.end(), others.begin(), others.end());
  Result<Shape> b = broadcast_shapes(all);
  if (!b.ok()) return b;
  if (b.value() != self)
    return Error{ErrorKind::inplace_shape, "output with shape " + format_shape(self) +
                                               " doesn't match the broadcast shape " + format_shape(b.value())};
  return self;
}

std::optional<Error> inplace_overlap_error(const Tensor& self, const std::vector<const Tensor*>& inputs) {
  if (has_internal_overlap(self.view())) return Error{ErrorKind::internal_overlap, kInternalOverlapMessage};
  for (const Tensor* in : inputs)
    if (in->shares_storage_with(self) && overlap(self.view(), in->view()) == Overlap::partial)
      return Error{ErrorKind::partial_overlap, kPartialOverlapMessage};
  return std::nullopt;
}

}  // namespace bc
