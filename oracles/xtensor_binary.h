// The pointwise binary ops' value forms (xtensor_pointwise.h's two-operand rows) as a user
// writes them in xtensor, evaluated into an xarray of whatever value type xtensor's expression has (C++'s
// conversions). Compiled per pair of element types in two units, so that they build in parallel:
// xtensor_arithmetic.cpp (the wide types) and xtensor_arithmetic_narrow.cpp.
#pragma once

#include "oracles/xtensor_operands.h"
#include "oracles/xtensor_pointwise.h"

namespace bc::xtv {

// An out= case assigns the expression into an existing container (xtensor_operands.h assign_out); out= is compiled
// for the wide element types only (xtensor_oracle.cpp refuses an out= case with a narrow integer), and not at all
// where `with_out` is false (a number operand: xtensor_numbers.cpp).
template <bool with_out = true, class A, class B>
Outcome binary_compiled(const Case& c, Op op, const A& a, const B& b) {
  const bool alpha = c.scalars.count("alpha") > 0;
  const auto ev = [&c](auto&& e) {
    if constexpr (!with_out || is_narrow_v<value_type_of<A>> || is_narrow_v<value_type_of<B>>) return evaluate(e);
    else return c.out ? assign_out(*c.out, e) : evaluate(e);
  };
  std::optional<Outcome> o;
  with_pointwise_row(op, [&](const auto& row) {
    constexpr Form form = std::decay_t<decltype(row)>::form;
    if constexpr (form == Form::binary_alpha) {
      o = alpha ? with_scalar(c, "alpha", [&](auto s) { return row.value(a, b, s, ev); }) : row.value(a, b, None{}, ev);
    } else if constexpr (form == Form::binary) {
      o = row.value(a, b, ev);
    }
  });
  if (o) return std::move(*o);
  return Outcome::unsupported_because(std::string("xtensor_arithmetic.cpp runs two-operand ops only, not ") +
                                      to_string(op));
}

}  // namespace bc::xtv
