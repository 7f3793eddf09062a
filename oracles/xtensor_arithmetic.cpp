// The xtensor value oracle's arithmetic ops (add ... minimum) on every pair of input dtypes: its own operators and
// functions, evaluated into an xarray of whatever value type xtensor's expression has (C++'s conversions).
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

template <class A, class B>
Outcome binary(const Case& c, const A& a, const B& b) {
  const std::string& op = c.op;
  const bool alpha = c.scalars.count("alpha") > 0;
  if (op == "add") return alpha ? with_scalar(c, "alpha", [&](auto s) { return evaluate(a + s * b); }) : evaluate(a + b);
  if (op == "sub") return alpha ? with_scalar(c, "alpha", [&](auto s) { return evaluate(a - s * b); }) : evaluate(a - b);
  if (op == "mul") return evaluate(a * b);
  if (op == "div") return evaluate(a / b);
  if (op == "pow") return evaluate(xt::pow(a, b));
  if (op == "atan2") return evaluate(xt::atan2(a, b));
  if (op == "fmod") return evaluate(xt::fmod(a, b));
  if (op == "maximum") return evaluate(xt::maximum(a, b));
  if (op == "minimum") return evaluate(xt::minimum(a, b));
  return Outcome::unsupported_because("xtensor has no " + op + " with PyTorch's meaning");
}

}  // namespace

Outcome arithmetic(const Case& c, const AnyInput& a, const AnyInput& b) {
  return std::visit([&](const auto& x, const auto& y) { return binary(c, x, y); }, a, b);
}

}  // namespace bc::xtv
