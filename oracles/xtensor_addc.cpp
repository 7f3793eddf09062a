// The xtensor oracle on addcmul and addcdiv: `c + value * a * b` and `c + value * a / b` as xtensor expressions over
// the operands' views (C++'s conversions: value is an int64_t or a double as the case writes it), in place xtensor's
// computed assignment `c += value * a * b` into c's view. Their unfused forms evaluate the product first, into an
// xarray, as add(c, mul(a, b), alpha=value) does. All three operands share one dtype (one instantiation per dtype).
#include <xtensor/xarray.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

// value * a * b (or / b), fused into one expression or with the product evaluated first, in C++'s value type.
template <class T, class V, class R = decltype(V() * T() * T())>
xt::xarray<R> scaled_product(bool mul, bool unfused, const Input<T>& a, const Input<T>& b, V value) {
  if (unfused) {
    if (mul) return value * xt::eval(a * b);
    return value * xt::eval(a / b);
  }
  if (mul) return value * a * b;
  return value * a / b;
}

template <class T>
Outcome run_typed(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans) {
  const Op base = out_of_place(c.op);
  const bool unfused = entry(c.op).family == Family::unfused, mul = base == Op::addcmul || base == Op::unfused_addcmul;
  const bool in_place = is_inplace(c.op);
  const Input<T>& a = std::get<Input<T>>(ops.inputs[1]);
  const Input<T>& b = std::get<Input<T>>(ops.inputs[2]);
  return with_scalar(c, "value", [&](auto value) -> Outcome {
    const auto term = scaled_product<T>(mul, unfused, a, b, value);
    if (!in_place) return evaluate(std::get<Input<T>>(ops.inputs[0]) + term);
    return write_into_self<T>(plans, ops, XShape(term.shape().begin(), term.shape().end()), [&](auto& self) {
      self += term;
      return result(self);
    });
  });
}

}  // namespace

Outcome addc(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans) {
  const Op base = out_of_place(c.op);
  if (base != Op::addcmul && base != Op::addcdiv && base != Op::unfused_addcmul && base != Op::unfused_addcdiv)
    return Outcome::unsupported_because(std::string("the xtensor addcmul/addcdiv oracle does not run ") +
                                        to_string(c.op));
  for (const OperandPlan& p : plans)
    if (p.dtype != plans[0].dtype)
      return Outcome::unsupported_because("the xtensor addcmul/addcdiv oracle is instantiated per dtype, for operands "
                                          "that share one (these mix " + std::string(to_string(plans[0].dtype)) +
                                          " and " + to_string(p.dtype) + ")");
  return with_value_type(plans[0].dtype, [&](auto v) { return run_typed<decltype(v)>(c, ops, plans); });
}

}  // namespace bc::xtv
