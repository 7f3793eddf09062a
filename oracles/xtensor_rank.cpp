// The xtensor-rank variant: the operands as fixed-rank containers xt::xtensor<T, N> (copies of the case's views,
// all of one rank N <= 4), the result assigned to an xt::xtensor<R, N> and in place `self op= other` on self's
// container, which owns its data and resizes as an xarray does. A container cannot be a view of the case's memory,
// so an in-place op on a self that is not contiguous, or with an operand that views self, is unsupported.
// Building an xt::xtensor<T, 0> copies its empty shape with std::copy(nullptr, nullptr, ...), which GCC 12 flags
// as a null argument to memmove (-Wnonnull) though no byte moves.
#pragma GCC diagnostic ignored "-Wnonnull"

#include <xtensor/xtensor.hpp>

#include "harness/operand_views.h"
#include "oracles/xtensor_variant.h"
#include "oracles/xtensor_variants.h"

namespace bc {
namespace xtv {
namespace {

template <std::size_t N, class I>
xt::xtensor<typename I::value_type, N> container_of(const I& input) {
  return xt::xtensor<typename I::value_type, N>(input);
}

template <std::size_t N>
Outcome at_rank(const Case& c, VariantRequest r, const Operands& ops) {
  auto evaluate_into = [](const auto& e) {
    xt::xtensor<typename std::decay_t<decltype(e)>::value_type, N> out = e;
    return result(out);
  };
  if (r.op == VariantOp::where) {
    const auto* k = std::get_if<Input<bool>>(&ops.inputs[0]);
    if (!k)  // one condition type per rank keeps the instantiations down; the other paths take any condition
      return Outcome::unsupported_because("xtensor-rank is instantiated for a bool where condition only");
    return same_type(ops.inputs[1], ops.inputs[2], [&](const auto& x, const auto& y) {
      return evaluate_into(xt::where(container_of<N>(*k), container_of<N>(x), container_of<N>(y)));
    });
  }
  return same_type(ops.inputs[0], ops.inputs[1], [&](const auto& x, const auto& y) {
    auto a = container_of<N>(x);
    const auto b = container_of<N>(y);
    if (r.inplace) return assign_op(c, r.op, a, b, CompoundAssign{});
    return with_binary(c, r.op, a, b, evaluate_into);
  });
}

// What the path refuses before it builds a container: operands of several ranks, an in-place self it cannot own.
std::optional<std::string> rank_refusal(const Case& c, VariantRequest r) {
  const std::size_t rank = c.shapes[0].size();
  for (const Shape& s : c.shapes)
    if (s.size() != rank) return std::string("xtensor-rank is instantiated for operands of one rank; this case mixes ranks");
  if (!r.inplace) return std::nullopt;  // not_owned's answer without planning the operands
  if (const auto why = not_owned(plan_views(c), r)) return "an xt::xtensor<T, N> " + *why;
  return std::nullopt;
}

Outcome rank_path(const Case& c, VariantRequest r) {
  Operands ops;
  build_operands(plan_operands(c), ops);
  switch (c.shapes[0].size()) {
    case 0: return at_rank<0>(c, r, ops);
    case 1: return at_rank<1>(c, r, ops);
    case 2: return at_rank<2>(c, r, ops);
    case 3: return at_rank<3>(c, r, ops);
    case 4: return at_rank<4>(c, r, ops);
  }
  return Outcome::unsupported_because("xtensor-rank is instantiated for ranks up to 4");
}

}  // namespace
}  // namespace xtv

std::optional<Outcome> xtensor_rank_refusal(const Case& c) { return xtv::variant_refusal("xtensor-rank", c, xtv::rank_refusal); }
std::unique_ptr<Oracle> make_xtensor_rank_oracle() {
  return xtv::make_variant_oracle("xtensor-rank", xtv::rank_refusal, xtv::rank_path);
}

}  // namespace bc
