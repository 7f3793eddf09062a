// The xtensor value oracle's pointwise unary ops (neg, abs, sqrt, exp, log, sign, reciprocal) on each input dtype:
// xtensor's own functions, evaluated into an xarray of whatever value type the expression has (C++'s conversions:
// the math functions of an integer are double, -bool is int). Exhaustive over the op table.
#include <type_traits>

#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

template <class X>
Outcome unary_of(Op op, const X& a) {
  using T = typename X::value_type;
  switch (op) {
    case Op::neg: return evaluate(-a);
    case Op::abs: return evaluate(xt::abs(a));
    case Op::sqrt: return evaluate(xt::sqrt(a));
    case Op::exp: return evaluate(xt::exp(a));
    case Op::log: return evaluate(xt::log(a));
    case Op::sign: return evaluate(xt::sign(a));
    case Op::reciprocal:
      // xtensor has no reciprocal; 1 / a in a's own type, which for integers is C++'s integer division.
      if constexpr (std::is_floating_point_v<T>) return evaluate(T(1) / a);
      else return Outcome::unsupported_because("xtensor has no reciprocal; 1 / a on integers is integer division");
    case Op::add: case Op::sub: case Op::mul: case Op::div: case Op::pow: case Op::atan2: case Op::fmod:
    case Op::remainder: case Op::maximum: case Op::minimum: case Op::eq: case Op::ne: case Op::lt: case Op::le:
    case Op::gt: case Op::ge: case Op::hypot: case Op::add_: case Op::sub_: case Op::mul_: case Op::div_:
    case Op::pow_: case Op::atan2_: case Op::fmod_: case Op::remainder_: case Op::eq_: case Op::ne_: case Op::lt_:
    case Op::le_: case Op::gt_: case Op::ge_: case Op::hypot_: case Op::lerp: case Op::lerp_: case Op::where:
    case Op::addcmul: case Op::addcdiv: case Op::addcmul_: case Op::addcdiv_: case Op::unfused_addcmul:
    case Op::unfused_addcdiv: case Op::unfused_addcmul_: case Op::unfused_addcdiv_: case Op::broadcast_shapes:
    case Op::expand: case Op::sum_to: case Op::matmul: case Op::mm: case Op::bmm: case Op::mv: case Op::dot:
    case Op::outer: case Op::addmm: case Op::addmv: case Op::addr: case Op::baddbmm: case Op::addbmm:
    case Op::addmm_: case Op::addmv_: case Op::addr_: case Op::baddbmm_: case Op::addbmm_: case Op::diamond:
    case Op::dist: case Op::graph: case Op::floor_divide: case Op::floor_divide_: case Op::sum: case Op::mean:
    case Op::amax: case Op::amin: case Op::prod: case Op::fill_: case Op::zero_:
      break;
  }
  return Outcome::unsupported_because(std::string("xtensor_unary.cpp runs one-operand ops only, not ") +
                                      to_string(op));
}

}  // namespace

Outcome unary(Op op, const AnyInput& a) {
  return std::visit([&](const auto& x) { return unary_of(op, x); }, a);
}

}  // namespace bc::xtv
