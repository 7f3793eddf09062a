// The xtensor value oracle's comparisons (eq ... ge) and where, on every pair of input dtypes.
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

template <class A, class B>
Outcome compare(const Case& c, const A& a, const B& b) {
  const std::string& op = c.op;
  if (op == "eq") return evaluate(xt::equal(a, b));
  if (op == "ne") return evaluate(xt::not_equal(a, b));
  if (op == "lt") return evaluate(a < b);
  if (op == "le") return evaluate(a <= b);
  if (op == "gt") return evaluate(a > b);
  if (op == "ge") return evaluate(a >= b);
  return Outcome::unsupported_because("xtensor has no " + op + " with PyTorch's meaning");
}

}  // namespace

Outcome comparison(const Case& c, const AnyInput& a, const AnyInput& b) {
  return std::visit([&](const auto& x, const auto& y) { return compare(c, x, y); }, a, b);
}

Outcome where(const AnyInput& condition, const AnyInput& a, const AnyInput& b) {
  const auto* cond = std::get_if<Input<bool>>(&condition);
  if (!cond) return Outcome::unsupported_because("xt::where is only run with a bool condition");
  return std::visit([&](const auto& x, const auto& y) { return evaluate(xt::where(*cond, x, y)); }, a, b);
}

}  // namespace bc::xtv
