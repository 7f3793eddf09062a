// The pointwise binary ops' value forms (xtensor_pointwise.h's two-operand rows) as a user writes them in xtensor,
// on operands held as xtensor_conversions.h holds them (in the type the op converts them to first), evaluated into an
// xarray of whatever value type xtensor's expression has. Each row's form is compiled only for the pairs of held
// element types its rule makes (held_pair_v, scaled_pair_v); another pair is never reached.
#pragma once

#include "oracles/xtensor_conversions.h"
#include "oracles/xtensor_operands.h"
#include "oracles/xtensor_pointwise.h"

namespace bc::xtv {

// An out= case assigns the expression into an existing container (xtensor_operands.h assign_out). xtensor_oracle.cpp
// refuses an out= case with a narrow integer operand, so out= is not compiled for the int8, uint8 and int16 results
// that only narrow operands make (the maximum of two int8). `number`: b is a number (xtensor_numbers.cpp, `a + 2.5`)
// as its C++ literal, which the op converts itself: compiled for every element type of a with every literal's type,
// and without out= (no number case has one).
template <bool number = false, class A, class B>
Outcome binary_compiled(const Case& c, Op op, const A& a, const B& b) {
  using TA = value_type_of<A>;
  using TB = value_type_of<B>;
  const bool alpha = c.scalars.count("alpha") > 0;
  const auto ev = [&c](auto&& e) {
    using V = value_type_of<decltype(e)>;
    if constexpr (number || (is_narrow_v<V> && !std::is_same_v<V, int32_t>)) return evaluate(e);
    else return c.out ? assign_out(*c.out, e) : evaluate(e);
  };
  std::optional<Outcome> o;
  with_pointwise_row(op, [&](const auto& row) {
    using R = std::decay_t<decltype(row)>;
    const auto plain = [&](auto... s) -> Outcome {
      if constexpr (number || held_pair_v<R::conversion, TA, TB>) return row.value(a, b, s..., ev);
      else if constexpr (R::conversion == decltype(R::conversion)::none)  // a pair rule none does not compile
        return not_compiled(dtype_name<TA>() + " with " + dtype_name<TB>());
      else return not_reached(c);
    };
    if constexpr (R::form == Form::binary_alpha) {
      if (!alpha) o = plain(None{});
      else o = with_scalar(c, "alpha", [&](auto s) -> Outcome {
        if constexpr (number || scaled_pair_v<TA, TB, decltype(s)>) return row.value(a, b, s, ev);
        else return not_reached(c);
      });
    } else if constexpr (R::form == Form::binary) {
      o = plain();
    }
  });
  if (o) return std::move(*o);
  return Outcome::unsupported_because(std::string("xtensor_arithmetic.cpp runs two-operand ops only, not ") +
                                      to_string(op));
}

}  // namespace bc::xtv
