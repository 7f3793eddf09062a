// The xtensor-noalias variant: the result assigned with xt::noalias, which tells xtensor that the left side shares
// no memory with the right and so may be written as it is computed: `xt::noalias(r) = a op b` into a fresh xarray,
// and in place `xt::noalias(self) op= other` on the case's own self (the base adaptor, or a real view), where plain
// computed assignment evaluates into a temporary first. A result larger than a view is not run (as in xtensor).
#include <xtensor/xnoalias.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_variant.h"
#include "oracles/xtensor_variants.h"

namespace bc {
namespace xtv {
namespace {

struct NoaliasAssign {
  template <class S, char C, class E>
  void operator()(S& self, Sign<C>, const E& e) const {
    if constexpr (C == '+') xt::noalias(self) += e;
    else if constexpr (C == '-') xt::noalias(self) -= e;
    else if constexpr (C == '*') xt::noalias(self) *= e;
    else xt::noalias(self) /= e;
  }
};

template <class E>
Outcome into_fresh(const E& e) {
  xt::xarray<typename E::value_type> r;
  xt::noalias(r) = e;
  return result(r);
}

Outcome noalias_path(const Case& c, VariantRequest r) {
  const std::vector<OperandPlan> plans = plan_operands(c);
  Operands ops;
  build_operands(plans, ops);
  if (r.op == VariantOp::where)
    return with_where(ops.inputs[0], ops.inputs[1], ops.inputs[2], [](const auto& e) { return into_fresh(e); });
  if (!r.inplace)
    return same_type(ops.inputs[0], ops.inputs[1],
                     [&](const auto& a, const auto& b) { return with_binary(c, r.op, a, b, [](const auto& e) {
                       return into_fresh(e);
                     }); });
  return std::visit(
      [&](const auto& other) -> Outcome {
        using T = value_type_of<decltype(other)>;
        if constexpr (is_narrow_v<T>) {
          return not_compiled("xt::noalias with " + dtype_name<T>());
        } else {
          XShape shape(other.shape().begin(), other.shape().end());
          return write_into_self<T>(plans, ops, shape, [&](auto& self) {
            return assign_op(c, r.op, self, other, NoaliasAssign{});
          });
        }
      },
      ops.inputs[1]);
}

}  // namespace
}  // namespace xtv

std::optional<Outcome> xtensor_noalias_refusal(const Case& c) { return xtv::variant_refusal("xtensor-noalias", c, nullptr); }
std::unique_ptr<Oracle> make_xtensor_noalias_oracle() {
  return xtv::make_variant_oracle("xtensor-noalias", nullptr, xtv::noalias_path);
}

}  // namespace bc
