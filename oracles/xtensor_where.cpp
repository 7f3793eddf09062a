// The xtensor value oracle's where: xt::where with a condition of any dtype (a non-bool element is tested for
// truth, as C++ converts it to bool) and operands of any pair of dtypes.
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {

Outcome where(const AnyInput& condition, const AnyInput& a, const AnyInput& b) {
  return std::visit([&](const auto& cond, const auto& x, const auto& y) { return evaluate(xt::where(cond, x, y)); },
                    condition, a, b);
}

}  // namespace bc::xtv
