// The xtensor value oracle's where: xt::where(condition, a, b) with the condition held as bool (what `cond ? a : b`
// tests, of any dtype) and a and b held in their common type (xtensor_conversions.h, where), so that it is compiled
// once per element type and answers every triple of dtypes.
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_conversions.h"
#include "oracles/xtensor_operands.h"

namespace bc::xtv {

Outcome where(const Case& c, const AnyInput& condition, const AnyInput& a, const AnyInput& b) {
  return std::visit(
      [&](const auto& cond) {
        if constexpr (!held_condition_v<value_type_of<decltype(cond)>>) {
          return not_reached(c);
        } else {
          return std::visit(
              [&](const auto& x, const auto& y) {
                if constexpr (held_choices_v<value_type_of<decltype(x)>, value_type_of<decltype(y)>>)
                  return evaluate(xt::where(cond, x, y));
                else
                  return not_reached(c);
              },
              a, b);
        }
      },
      condition);
}

}  // namespace bc::xtv
