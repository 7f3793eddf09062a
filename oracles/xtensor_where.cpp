// The xtensor value oracle's where, with a bool condition and operands of any pair of dtypes.
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {

Outcome where(const AnyInput& condition, const AnyInput& a, const AnyInput& b) {
  const auto* cond = std::get_if<Input<bool>>(&condition);
  if (!cond) return Outcome::unsupported_because("xt::where is only run with a bool condition");
  return std::visit([&](const auto& x, const auto& y) { return evaluate(xt::where(*cond, x, y)); }, a, b);
}

}  // namespace bc::xtv
