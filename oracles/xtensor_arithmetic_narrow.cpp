// The xtensor value oracle's pointwise binary ops (xtensor_binary.h) on two operands with a narrow integer among
// them: compiled where both have one narrow type (xtensor_operands.h pair_compiled_v), unsupported otherwise.
#include "oracles/xtensor_binary.h"

namespace bc::xtv {

Outcome arithmetic_narrow(const Case& c, Op op, const AnyInput& a, const AnyInput& b) {
  return std::visit(
      [&](const auto& x, const auto& y) {
        using TA = value_type_of<decltype(x)>;
        using TB = value_type_of<decltype(y)>;
        if constexpr (is_narrow_v<TA> && pair_compiled_v<TA, TB>)
          return binary_compiled(c, op, x, y);
        else
          return not_compiled(dtype_name<TA>() + " with " + dtype_name<TB>());
      },
      a, b);
}

}  // namespace bc::xtv
