// The xtensor-fixed variant: operands as xt::xtensor_fixed containers, whose shapes are part of their type, for a
// set of shapes compiled in ([], [1], [2], [3], [2, 3]), float32 and int64, add/sub/mul/div without alpha. The result
// is xt::eval's fixed container of the shape xtensor broadcasts at compile time; in place `self op= other` on self's
// fixed container. What the path cannot express is unsupported with the reason: another shape, a pair of shapes that
// does not broadcast (xtensor refuses it at compile time: static_assert "broadcast shapes do not match"), an in-place
// result larger than self (a fixed container's resize is a no-op outside debug builds, so the result would be
// written past its storage), a self that is a view of the case's memory.
#include <algorithm>
#include <array>
#include <tuple>
#include <utility>

#include <xtensor/xfixed.hpp>

#include "harness/operand_views.h"
#include "oracles/xtensor_variant.h"
#include "oracles/xtensor_variants.h"

namespace bc {
namespace xtv {
namespace {

using FixedShapes = std::tuple<xt::xshape<>, xt::xshape<1>, xt::xshape<2>, xt::xshape<3>, xt::xshape<2, 3>>;

template <std::size_t... N>
Shape dims(xt::fixed_shape<N...>) {
  return Shape{static_cast<int64_t>(N)...};
}

// Whether two fixed shapes broadcast, and whether their broadcast is the first (a fixed self can take the result).
template <std::size_t... A, std::size_t... B>
constexpr std::pair<bool, bool> broadcast_facts(xt::fixed_shape<A...>, xt::fixed_shape<B...>) {
  constexpr std::array<std::size_t, sizeof...(A) + 1> a{A..., 0};
  constexpr std::array<std::size_t, sizeof...(B) + 1> b{B..., 0};
  constexpr std::size_t na = sizeof...(A), nb = sizeof...(B);
  bool ok = true, into_first = nb <= na;
  for (std::size_t i = 1; i <= std::min(na, nb); ++i) {
    const std::size_t x = a[na - i], y = b[nb - i];
    ok = ok && (x == y || x == 1 || y == 1);
    into_first = into_first && (x == y || y == 1);
  }
  return {ok, ok && into_first};
}

template <class S, class I>
auto fixed_of(const I& input) {
  xt::xtensor_fixed<typename I::value_type, S> out;
  std::copy(input.begin(), input.end(), out.begin());
  return out;
}

bool compiled_shape(const Shape& s) {
  return std::apply([&](auto... shape) { return ((dims(shape) == s) || ...); }, FixedShapes{});
}
std::string not_compiled(const Shape& s) {
  return "xtensor-fixed is compiled for the shapes [], [1], [2], [3], [2, 3] only; not " + format_shape(s);
}

// `f(S{})` for the fixed shape S that is `s`; unsupported when none is.
template <class F, std::size_t... I>
Outcome with_fixed_shape(const Shape& s, F&& f, std::index_sequence<I...>) {
  Outcome o = Outcome::unsupported_because(not_compiled(s));
  (void)((dims(std::tuple_element_t<I, FixedShapes>{}) == s ? (o = f(std::tuple_element_t<I, FixedShapes>{}), true)
                                                            : false) ||
         ...);
  return o;
}
template <class F>
Outcome with_fixed_shape(const Shape& s, F&& f) {
  return with_fixed_shape(s, std::forward<F>(f), std::make_index_sequence<std::tuple_size_v<FixedShapes>>{});
}

template <class SA, class SB, class X, class Y>
Outcome on_fixed(const Case& c, VariantRequest r, const X& x, const Y& y) {
  constexpr std::pair<bool, bool> facts = broadcast_facts(SA{}, SB{});
  if constexpr (!facts.first) {
    return Outcome::unsupported_because("xtensor refuses fixed shapes that do not broadcast at compile time "
                                        "(xshape.hpp static_assert: broadcast shapes do not match)");
  } else {
    auto a = fixed_of<SA>(x);
    const auto b = fixed_of<SB>(y);
    if (!r.inplace) return with_binary<false>(c, r.op, a, b, [](const auto& e) { return result(xt::eval(e)); });
    if constexpr (!facts.second) {
      return Outcome::unsupported_because("an xtensor_fixed self cannot take a larger result: its resize is a no-op "
                                          "outside debug builds, so the result would be written past its storage");
    } else {
      return assign_op<false>(c, r.op, a, b, CompoundAssign{});
    }
  }
}

// What the path refuses before it builds a container: where, alpha, another dtype, an in-place self it cannot own,
// a shape not compiled in.
std::optional<std::string> fixed_refusal(const Case& c, VariantRequest r) {
  if (r.op == VariantOp::where) return std::string("xtensor-fixed runs add, sub, mul, div only");
  if (c.scalars.count("alpha")) return std::string("xtensor-fixed is compiled without alpha");
  const DType t = dtype_of(c, 0);
  if (t != DType::float32 && t != DType::int64) return std::string("xtensor-fixed is compiled for float32 and int64 only");
  if (r.inplace)  // not_owned's answer is nothing for an out-of-place op
    if (const auto why = not_owned(plan_views(c), r)) return "an xtensor_fixed " + *why;
  for (const Shape& s : {c.shapes[0], c.shapes[1]})
    if (!compiled_shape(s)) return not_compiled(s);
  return std::nullopt;
}

Outcome fixed_path(const Case& c, VariantRequest r) {
  Operands ops;
  build_operands(plan_operands(c), ops);
  return same_type(ops.inputs[0], ops.inputs[1], [&](const auto& x, const auto& y) -> Outcome {
    using T = typename std::decay_t<decltype(x)>::value_type;
    if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, int64_t>) {
      return Outcome::unsupported_because("xtensor-fixed is compiled for float32 and int64 only");
    } else {
      return with_fixed_shape(c.shapes[0], [&](auto sa) {
        return with_fixed_shape(c.shapes[1], [&](auto sb) { return on_fixed<decltype(sa), decltype(sb)>(c, r, x, y); });
      });
    }
  });
}

}  // namespace
}  // namespace xtv

std::optional<Outcome> xtensor_fixed_refusal(const Case& c) { return xtv::variant_refusal("xtensor-fixed", c, xtv::fixed_refusal); }
std::unique_ptr<Oracle> make_xtensor_fixed_oracle() {
  return xtv::make_variant_oracle("xtensor-fixed", xtv::fixed_refusal, xtv::fixed_path);
}

}  // namespace bc
