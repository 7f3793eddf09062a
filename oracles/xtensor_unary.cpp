// The xtensor value oracle's pointwise unary ops (xtensor_pointwise.h's one-operand rows) on each input dtype:
// xtensor's own functions, evaluated into an xarray of whatever value type the expression has (C++'s conversions:
// the math functions of an integer are double, -bool is int).
#include "oracles/xtensor_operands.h"
#include "oracles/xtensor_pointwise.h"

namespace bc::xtv {

Outcome unary(Op op, const AnyInput& a) {
  return std::visit(
      [&](const auto& x) {
        std::optional<Outcome> o;
        with_pointwise_row(op, [&](const auto& row) {
          if constexpr (std::decay_t<decltype(row)>::form == Form::unary)
            o = row.value(x, [](auto&& e) { return evaluate(e); });
        });
        if (o) return std::move(*o);
        return Outcome::unsupported_because(std::string("xtensor_unary.cpp runs one-operand ops only, not ") +
                                            to_string(op));
      },
      a);
}

}  // namespace bc::xtv
