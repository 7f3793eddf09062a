// The xtensor value oracle's pointwise binary ops (xtensor_binary.h) on two operands of the wide element types (bool,
// int64, float32, float64, any pair); a pair with a narrow integer goes to xtensor_arithmetic_narrow.cpp.
#include "oracles/xtensor_binary.h"

namespace bc::xtv {

Outcome arithmetic(const Case& c, Op op, const AnyInput& a, const AnyInput& b) {
  return std::visit(
      [&](const auto& x, const auto& y) {
        if constexpr (is_narrow_v<value_type_of<decltype(x)>> || is_narrow_v<value_type_of<decltype(y)>>)
          return arithmetic_narrow(c, op, a, b);
        else
          return binary_compiled(c, op, x, y);
      },
      a, b);
}

}  // namespace bc::xtv
