// The xtensor value oracle's pointwise binary ops (add ... ge, hypot) and dist, on every pair of input dtypes: its
// own operators and functions, evaluated into an xarray of whatever value type xtensor's expression has (C++'s
// conversions). Exhaustive over the op table: an op xtensor has no function for is unsupported with the reason.
#include <xtensor/xmath.hpp>
#include <xtensor/xnorm.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

template <class A, class B>
Outcome binary(const Case& c, Op op, const A& a, const B& b) {
  const bool alpha = c.scalars.count("alpha") > 0;
  switch (op) {
    case Op::add: return alpha ? with_scalar(c, "alpha", [&](auto s) { return evaluate(a + s * b); }) : evaluate(a + b);
    case Op::sub: return alpha ? with_scalar(c, "alpha", [&](auto s) { return evaluate(a - s * b); }) : evaluate(a - b);
    case Op::mul: return evaluate(a * b);
    case Op::div: return evaluate(a / b);
    case Op::pow: return evaluate(xt::pow(a, b));
    case Op::atan2: return evaluate(xt::atan2(a, b));
    case Op::fmod: return evaluate(xt::fmod(a, b));
    case Op::maximum: return evaluate(xt::maximum(a, b));
    case Op::minimum: return evaluate(xt::minimum(a, b));
    case Op::eq: return evaluate(xt::equal(a, b));
    case Op::ne: return evaluate(xt::not_equal(a, b));
    case Op::lt: return evaluate(a < b);
    case Op::le: return evaluate(a <= b);
    case Op::gt: return evaluate(a > b);
    case Op::ge: return evaluate(a >= b);
    case Op::hypot: return evaluate(xt::hypot(a, b));
    case Op::dist: return evaluate(xt::norm_l2(a - b));  // xnorm.hpp: sqrt of the sum of squares, all axes
    case Op::remainder:
      return Outcome::unsupported_because("xt::remainder is IEEE's remainder (round to nearest), not PyTorch's "
                                          "floor-mod; not run");
    case Op::neg: case Op::abs: case Op::sqrt: case Op::exp: case Op::log: case Op::sign: case Op::reciprocal:
    case Op::add_: case Op::sub_: case Op::mul_: case Op::div_: case Op::pow_: case Op::atan2_: case Op::fmod_:
    case Op::remainder_: case Op::eq_: case Op::ne_: case Op::lt_: case Op::le_: case Op::gt_: case Op::ge_:
    case Op::hypot_: case Op::lerp: case Op::lerp_: case Op::where: case Op::addcmul: case Op::addcdiv:
    case Op::addcmul_: case Op::addcdiv_: case Op::unfused_addcmul: case Op::unfused_addcdiv:
    case Op::unfused_addcmul_: case Op::unfused_addcdiv_: case Op::broadcast_shapes: case Op::expand: case Op::sum_to:
    case Op::matmul: case Op::mm: case Op::bmm: case Op::mv: case Op::dot: case Op::outer: case Op::addmm:
    case Op::addmv: case Op::addr: case Op::baddbmm: case Op::addbmm: case Op::addmm_: case Op::addmv_:
    case Op::addr_: case Op::baddbmm_: case Op::addbmm_: case Op::diamond:
    case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod:
      break;
  }
  return Outcome::unsupported_because(std::string("xtensor_arithmetic.cpp runs two-operand ops only, not ") +
                                      to_string(op));
}

}  // namespace

Outcome arithmetic(const Case& c, Op op, const AnyInput& a, const AnyInput& b) {
  return std::visit([&](const auto& x, const auto& y) { return binary(c, op, x, y); }, a, b);
}

}  // namespace bc::xtv
