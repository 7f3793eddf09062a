// The xtensor value oracle's in-place ops on a self that is a view (transposed, strided, expanded): xtensor's
// computed assignment into the view (xsemantic.hpp xview_semantic), which evaluates the result into a temporary
// and copies it through the view into the base's storage. Apart from xtensor_inplace.cpp so that both compile in
// parallel.
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {

Outcome assign_into_view(const Case& c, const ViewSelf& self, const AnyInput& other) {
  return std::visit([&](auto* a, const auto& b) { return assign(c, *a, b); }, self, other);
}

}  // namespace bc::xtv
