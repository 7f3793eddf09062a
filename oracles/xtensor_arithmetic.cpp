// The xtensor value oracle's pointwise binary ops (xtensor_binary.h) on two operands held as xtensor_conversions.h
// holds them: one unit, since each op is compiled only for the few pairs of held types its rule makes.
#include "oracles/xtensor_binary.h"

namespace bc::xtv {

Outcome arithmetic(const Case& c, Op op, const AnyInput& a, const AnyInput& b) {
  return std::visit([&](const auto& x, const auto& y) { return binary_compiled(c, op, x, y); }, a, b);
}

}  // namespace bc::xtv
