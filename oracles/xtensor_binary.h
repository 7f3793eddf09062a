// The pointwise binary ops' expressions (add ... ge, hypot, remainder) and dist as a user writes them in xtensor: the
// operator or function of the op's name (xt::remainder is IEEE's remainder, a == b compares whole arrays), evaluated
// into an xarray of whatever value type xtensor's expression has (C++'s conversions). Exhaustive over the op table:
// an op xtensor has no function for is unsupported with the reason. Compiled per pair of element types in two units,
// so that they build in parallel: xtensor_arithmetic.cpp (the wide types) and xtensor_arithmetic_narrow.cpp.
#pragma once

#include <xtensor/xmath.hpp>
#include <xtensor/xnorm.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {

// One bool, as a 0-d bool result.
inline Outcome whole(bool equal) {
  Outcome o = Outcome::success(Shape{}, "bool");
  o.values = Values(std::vector<int64_t>{equal ? 1 : 0});
  return o;
}

// An out= case assigns the expression into an existing container (xtensor_operands.h assign_out); out= is compiled
// for the wide element types only (xtensor_oracle.cpp refuses an out= case with a narrow integer).
template <class A, class B>
Outcome binary_compiled(const Case& c, Op op, const A& a, const B& b) {
  const bool alpha = c.scalars.count("alpha") > 0;
  const auto ev = [&c](auto&& e) {
    if constexpr (is_narrow_v<value_type_of<A>> || is_narrow_v<value_type_of<B>>) return evaluate(e);
    else return c.out ? assign_out(*c.out, e) : evaluate(e);
  };
  switch (op) {
    case Op::add: return alpha ? with_scalar(c, "alpha", [&](auto s) { return ev(a + s * b); }) : ev(a + b);
    case Op::sub: return alpha ? with_scalar(c, "alpha", [&](auto s) { return ev(a - s * b); }) : ev(a - b);
    case Op::mul: return ev(a * b);
    case Op::div: return ev(a / b);
    case Op::pow: return ev(xt::pow(a, b));
    case Op::atan2: return ev(xt::atan2(a, b));
    case Op::fmod: return ev(xt::fmod(a, b));
    case Op::maximum: return ev(xt::maximum(a, b));
    case Op::minimum: return ev(xt::minimum(a, b));
    // a == b and a != b in xtensor compare whole expressions (same shape, same elements) and give one bool; the
    // elementwise forms are xt::equal and xt::not_equal. A user writing a == b gets the former (xtensor-eq-whole).
    case Op::eq: return whole(a == b);
    case Op::ne: return whole(a != b);
    case Op::lt: return ev(a < b);
    case Op::le: return ev(a <= b);
    case Op::gt: return ev(a > b);
    case Op::ge: return ev(a >= b);
    case Op::hypot: return ev(xt::hypot(a, b));
    case Op::floor_divide:
      // xtensor has no floor_divide; for floating values people write xt::floor(a / b). On integers a / b is C++'s
      // truncating division (which traps on a zero divisor), not a floor division: not run.
      if constexpr (std::is_floating_point_v<value_type_of<A>> || std::is_floating_point_v<value_type_of<B>>)
        return ev(xt::floor(a / b));
      else
        return Outcome::unsupported_because("xtensor has no floor_divide; a / b on integers truncates");
    case Op::dist: return evaluate(xt::norm_l2(a - b));  // xnorm.hpp: sqrt of the sum of squares, all axes
    case Op::remainder: return ev(xt::remainder(a, b));  // std::remainder: IEEE's, not floor-mod
    case Op::neg: case Op::abs: case Op::sqrt: case Op::exp: case Op::log: case Op::sign: case Op::reciprocal:
    case Op::add_: case Op::sub_: case Op::mul_: case Op::div_: case Op::pow_: case Op::atan2_: case Op::fmod_:
    case Op::remainder_: case Op::eq_: case Op::ne_: case Op::lt_: case Op::le_: case Op::gt_: case Op::ge_:
    case Op::hypot_: case Op::lerp: case Op::lerp_: case Op::where: case Op::addcmul: case Op::addcdiv:
    case Op::addcmul_: case Op::addcdiv_: case Op::unfused_addcmul: case Op::unfused_addcdiv:
    case Op::unfused_addcmul_: case Op::unfused_addcdiv_: case Op::broadcast_shapes: case Op::expand: case Op::sum_to:
    case Op::matmul: case Op::mm: case Op::bmm: case Op::mv: case Op::dot: case Op::outer: case Op::addmm:
    case Op::addmv: case Op::addr: case Op::baddbmm: case Op::addbmm: case Op::addmm_: case Op::addmv_:
    case Op::addr_: case Op::baddbmm_: case Op::addbmm_: case Op::diamond: case Op::graph: case Op::floor_divide_:
    case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod: case Op::fill_: case Op::zero_:
      break;
  }
  return Outcome::unsupported_because(std::string("xtensor_arithmetic.cpp runs two-operand ops only, not ") +
                                      to_string(op));
}

}  // namespace bc::xtv
