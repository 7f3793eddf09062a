// The xtensor oracle's binding rows for the pointwise ops (docs/ARCHITECTURE.md, "Where an implementation binds an
// op"): for each op, in one row, its value form as a user writes it in xtensor, whether xtensor has a computed
// assignment for its in-place form, and for the ops with a gradient the forward with PyTorch's meaning (where it is
// not the value form) and each operand's gradient (derivatives.yaml's formula) as xtensor expressions, and the rule
// by which its function converts its operands first (xtensor_conversions.h). The value oracle (xtensor_arithmetic.cpp,
// xtensor_unary.cpp), the gradient and graph oracle (xtensor_grads.cpp) and the binding table (xtensor_values.cpp)
// all read these rows; nothing else in the xtensor oracle names a pointwise op.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnorm.hpp>
#include <xtensor/xoperation.hpp>

#include "engine/op_table.h"
#include "harness/case.h"
#include "harness/outcome.h"
#include "oracles/xtensor_conversions.h"

namespace bc::xtv {

// The absence of a form in a row, and of alpha in a case.
struct None {};
template <class T>
inline constexpr bool is_none_v = std::is_same_v<std::decay_t<T>, None>;

// What a row's value form is: one operand, two (with add/sub's alpha or without), or none (a formula only: the op
// reaches the value oracle by a path of its own, or not at all).
enum class Form { unary, binary, binary_alpha, formula };

// A row. The value form takes the operands (binary_alpha: and alpha, a C++ number or None) and `ev`, which it
// calls on its expression (evaluation, an out= assignment, or the expression's type), or returns an Outcome where
// xtensor has no such function for these types. C: the rule by which the value form's function converts its
// operands before it applies (xtensor_conversions.h), so that the value oracle holds them in the types it computes
// in. forward (x, alpha) -> X: PyTorch's meaning on operands of one xt::xarray type X broadcast to one shape, where
// the value form does not have it; grad (x, r, g, alpha) -> each operand's gradient in the result's shape (None: no
// gradient here); type (case) -> the forward's dtype, for formula rows. `assigns`: xtensor has the in-place form as
// a computed assignment (a += b).
template <Form K, Conversion C, class V, class F = None, class G = None, class Ty = None>
struct Row {
  Op op;
  V value;
  F forward{};
  G grad{};
  Ty type{};
  bool assigns = false;
  static constexpr Form form = K;
  static constexpr Conversion conversion = C;
  static constexpr bool has_forward = !is_none_v<F>, has_grad = !is_none_v<G>;
  template <class X>
  constexpr Row<K, C, V, X, G, Ty> with_forward(X x) const { return {op, value, x, grad, type, assigns}; }
  template <class X>
  constexpr Row<K, C, V, F, X, Ty> with_grad(X x) const { return {op, value, forward, x, type, assigns}; }
  template <class X>
  constexpr Row<K, C, V, F, G, X> with_type(X x) const { return {op, value, forward, grad, x, assigns}; }
  constexpr Row with_assignment() const { return {op, value, forward, grad, type, true}; }
};
template <Form K, Conversion C, class V>
constexpr Row<K, C, V> row(Op op, V value) { return {op, value}; }
template <Conversion C, class F>
constexpr Row<Form::formula, C, None, F> formula(Op op, F forward) { return {op, None{}, forward}; }

// Each gradient as an X, from expressions.
template <class X, class... E>
std::vector<X> shares(const X&, E&&... e) { return {X(std::forward<E>(e))...}; }

// LibTorch's div(a, b, rounding_mode="floor") on floating values (div_floor_floating), which is not floor(a / b)
// at the edges: the quotient comes from fmod so that it is exact (one less where fmod's sign differs from b's,
// so -2 // inf is -1 and inf // 2 is nan), rounded to the nearest integer when it lands just below one; a zero
// quotient keeps the sign of a / b; a zero divisor gives a / b.
template <class T>
xt::xarray<T> torch_floor_divide(const xt::xarray<T>& a, const xt::xarray<T>& b) {
  using X = xt::xarray<T>;
  const X mod = xt::fmod(a, b);
  X div = (a - mod) / b;
  div = xt::where(xt::not_equal(mod, T(0)) && xt::not_equal(b < T(0), mod < T(0)), X(div - T(1)), div);
  X floored = xt::floor(div);
  floored = xt::where(div - floored > T(0.5), X(floored + T(1)), floored);
  return xt::where(xt::equal(b, T(0)), X(a / b), X(xt::where(xt::not_equal(div, T(0)), floored, X(T(0) * (a / b)))));
}

// maximum's and minimum's gradient: ties share it; the side that loses gets none.
template <class X>
std::vector<X> extremum_grads(const X& a, const X& b, const X& g, bool maximum) {
  using T = typename X::value_type;
  const X split = xt::where(xt::equal(a, b), X(g / T(2)), g);
  const X a_loses = maximum ? X(a < b) : X(a > b);
  const X b_loses = maximum ? X(a > b) : X(a < b);
  return {xt::where(xt::not_equal(a_loses, T(0)), T(0), split), xt::where(xt::not_equal(b_loses, T(0)), T(0), split)};
}

// One bool, as a 0-d bool result (a == b in xtensor compares whole expressions).
inline Outcome whole(bool equal) {
  Outcome o = Outcome::success(Shape{}, "bool");
  o.values = Values(std::vector<int64_t>{equal ? 1 : 0});
  return o;
}

// The bitwise operators (&, |, ^, <<, >>) as C++ has them: on integers and bool only, each operand promoted to int
// (or long), so bool & bool is an int (C++'s conversions). On a floating operand they do not compile: unsupported.
// `f` is generic, so that its expression is instantiated for integer element types only.
template <class A, class B, class F>
Outcome on_integers(const A& a, const B& b, F&& f) {
  using TA = typename std::decay_t<A>::value_type;
  using TB = typename std::decay_t<B>::value_type;
  if constexpr (std::is_integral_v<TA> && std::is_integral_v<TB>)
    return f(a, b);
  else
    return Outcome::unsupported_because("C++ has no bitwise operator for a floating operand: xtensor's does not compile");
}

// C++17 defines x << n and x >> n (x promoted to P, int or long) only for 0 <= n < P's width, and x << n only for
// x >= 0 whose result fits in P: elsewhere it is undefined behaviour, so such a case is not run. Each operand is
// checked on its own (every count against the width; every shifted value against the largest count).
template <class A, class B, class F>
Outcome shifted(bool left, const A& a, const B& b, F&& f) {
  using P = decltype(typename std::decay_t<A>::value_type{} << typename std::decay_t<B>::value_type{});
  constexpr int64_t width = sizeof(P) * 8;
  int64_t most = 0;
  for (const auto n : b) {
    const auto count = static_cast<int64_t>(n);
    if (count < 0 || count >= width)
      return Outcome::unsupported_because("a shift count of " + std::to_string(count) + " is outside [0, " +
                                          std::to_string(width) + "): undefined behaviour in C++, not run");
    most = std::max(most, count);
  }
  if (left)
    for (const auto x : a)
      if (static_cast<P>(x) < 0 || static_cast<P>(x) > (std::numeric_limits<P>::max() >> most))
        return Outcome::unsupported_because("a left shift of " + std::to_string(static_cast<int64_t>(x)) +
                                            " (negative, or overflowing by up to " + std::to_string(most) +
                                            " places): undefined behaviour in C++17, not run");
  return f(a, b);
}

// The forward of a row whose op has no meaning on the formulas' floating arrays (a bitwise op, a shift) or that
// xtensor lacks (logaddexp): no case reaches it, since such an op has no gradient here and is no comparison (the
// graph oracle refuses its node first).
inline constexpr auto kNoFormulaForward = [](const auto& x, auto) -> std::decay_t<decltype(x[0])> {
  throw std::logic_error("xtensor_pointwise.h: no forward on floating arrays for this op");
};

// The formula rows' dtypes (xtensor_grads.cpp): lerp's one dtype, where's and addcmul/addcdiv's C++ value type.
std::optional<DType> lerp_type(const Case& c);
std::optional<DType> where_type(const Case& c);
std::optional<DType> addcmul_type(const Case& c);
std::optional<DType> addcdiv_type(const Case& c);
std::optional<DType> diamond_type(const Case& c);

// The rows, in the op table's order. lerp and remainder have no xtensor function with PyTorch's meaning
// (xt::remainder is IEEE's), so their forwards are written out: lerp as LibTorch 1.13 evaluates it (from start
// below weight 0.5, from end above), remainder as fmod moved to the divisor's sign.
inline constexpr auto kPointwiseRows = std::make_tuple(
    row<Form::binary_alpha, Conversion::usual>(Op::add, [](const auto& a, const auto& b, auto s, auto&& ev) {
      if constexpr (is_none_v<decltype(s)>) return ev(a + b); else return ev(a + s * b);
    }).with_assignment().with_grad([](const auto&, const auto&, const auto& g, auto alpha) {
      return shares(g, g, g * alpha);
    }),
    row<Form::binary_alpha, Conversion::usual>(Op::sub, [](const auto& a, const auto& b, auto s, auto&& ev) {
      if constexpr (is_none_v<decltype(s)>) return ev(a - b); else return ev(a - s * b);
    }).with_assignment().with_grad([](const auto&, const auto&, const auto& g, auto alpha) {
      return shares(g, g, -g * alpha);
    }),
    row<Form::binary, Conversion::usual>(Op::mul, [](const auto& a, const auto& b, auto&& ev) { return ev(a * b); })
        .with_assignment()
        .with_grad([](const auto& x, const auto&, const auto& g, auto) { return shares(g, g * x[1], g * x[0]); }),
    row<Form::binary, Conversion::usual>(Op::div, [](const auto& a, const auto& b, auto&& ev) { return ev(a / b); })
        .with_assignment()
        .with_grad([](const auto& x, const auto&, const auto& g, auto) {
          return shares(g, g / x[1], -g * (x[0] / x[1]) / x[1]);
        }),
    row<Form::binary, Conversion::math>(Op::pow,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::pow(a, b)); })
        .with_grad([](const auto& x, const auto& r, const auto& g, auto alpha) {
          using X = std::decay_t<decltype(g)>;
          using T = decltype(alpha);
          const X &a = x[0], &b = x[1];
          return shares(g, xt::where(xt::equal(b, T(0)), T(0), X(g * b * xt::pow(a, X(b - T(1))))),
                        g * xt::where(xt::equal(a, T(0)) && b >= T(0), T(0), X(r * xt::log(a))));
        }),
    row<Form::binary, Conversion::math>(Op::atan2,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::atan2(a, b)); })
        .with_grad([](const auto& x, const auto&, const auto& g, auto alpha) {
          using X = std::decay_t<decltype(g)>;
          const X recip = decltype(alpha)(1) / (x[0] * x[0] + x[1] * x[1]);
          return shares(g, g * x[1] * recip, g * -x[0] * recip);
        }),
    row<Form::binary, Conversion::math>(Op::fmod,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::fmod(a, b)); })
        .with_grad([](const auto& x, const auto&, const auto& g, auto) { return shares(g, g, -g * xt::trunc(x[0] / x[1])); }),
    // std::remainder: IEEE's, not floor-mod (the value a user gets); the gradient's forward is PyTorch's.
    row<Form::binary, Conversion::math>(Op::remainder,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::remainder(a, b)); })
        .with_forward([](const auto& x, auto alpha) {
          using X = std::decay_t<decltype(x[0])>;
          using T = decltype(alpha);
          const X& b = x[1];
          const X m = xt::fmod(x[0], b);
          return X(xt::where(xt::not_equal(m, T(0)) && xt::not_equal(b < T(0), m < T(0)), X(m + b), m));
        })
        .with_grad([](const auto& x, const auto&, const auto& g, auto) {
          return shares(g, g, -g * torch_floor_divide(x[0], x[1]));
        }),
    row<Form::binary, Conversion::common>(Op::maximum,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::maximum(a, b)); })
        .with_grad([](const auto& x, const auto&, const auto& g, auto) { return extremum_grads(x[0], x[1], g, true); }),
    row<Form::binary, Conversion::common>(Op::minimum,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::minimum(a, b)); })
        .with_grad([](const auto& x, const auto&, const auto& g, auto) { return extremum_grads(x[0], x[1], g, false); }),
    // a == b and a != b in xtensor compare whole expressions (same shape, same elements) and give one bool; the
    // elementwise forms are xt::equal and xt::not_equal. A user writing a == b gets the former (xtensor-eq-whole).
    row<Form::binary, Conversion::usual>(Op::eq, [](const auto& a, const auto& b, auto&&) { return whole(a == b); })
        .with_forward([](const auto& x, auto) { return std::decay_t<decltype(x[0])>(xt::equal(x[0], x[1])); }),
    row<Form::binary, Conversion::usual>(Op::ne, [](const auto& a, const auto& b, auto&&) { return whole(a != b); })
        .with_forward([](const auto& x, auto) { return std::decay_t<decltype(x[0])>(xt::not_equal(x[0], x[1])); }),
    row<Form::binary, Conversion::usual>(Op::lt, [](const auto& a, const auto& b, auto&& ev) { return ev(a < b); }),
    row<Form::binary, Conversion::usual>(Op::le, [](const auto& a, const auto& b, auto&& ev) { return ev(a <= b); }),
    row<Form::binary, Conversion::usual>(Op::gt, [](const auto& a, const auto& b, auto&& ev) { return ev(a > b); }),
    row<Form::binary, Conversion::usual>(Op::ge, [](const auto& a, const auto& b, auto&& ev) { return ev(a >= b); }),
    row<Form::binary, Conversion::math>(Op::hypot,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::hypot(a, b)); })
        .with_grad([](const auto& x, const auto& r, const auto& g, auto) { return shares(g, g * x[0] / r, g * x[1] / r); }),
    row<Form::unary, Conversion::none>(Op::neg, [](const auto& a, auto&& ev) { return ev(-a); })
        .with_grad([](const auto&, const auto&, const auto& g, auto) { return shares(g, -g); }),
    row<Form::unary, Conversion::none>(Op::abs, [](const auto& a, auto&& ev) { return ev(xt::abs(a)); })
        .with_grad([](const auto& x, const auto&, const auto& g, auto) { return shares(g, g * xt::sign(x[0])); }),
    row<Form::unary, Conversion::none>(Op::sqrt, [](const auto& a, auto&& ev) { return ev(xt::sqrt(a)); })
        .with_grad([](const auto&, const auto& r, const auto& g, auto alpha) {
          return shares(g, g / (decltype(alpha)(2) * r));
        }),
    row<Form::unary, Conversion::none>(Op::exp, [](const auto& a, auto&& ev) { return ev(xt::exp(a)); })
        .with_grad([](const auto&, const auto& r, const auto& g, auto) { return shares(g, g * r); }),
    row<Form::unary, Conversion::none>(Op::log, [](const auto& a, auto&& ev) { return ev(xt::log(a)); })
        .with_grad([](const auto& x, const auto&, const auto& g, auto) { return shares(g, g / x[0]); }),
    row<Form::unary, Conversion::none>(Op::sign, [](const auto& a, auto&& ev) { return ev(xt::sign(a)); })
        .with_grad([](const auto&, const auto&, const auto& g, auto) { return shares(g, xt::zeros_like(g)); }),
    // xtensor has no reciprocal; 1 / a in a's own type, which for integers is C++'s integer division: not run.
    row<Form::unary, Conversion::none>(Op::reciprocal, [](const auto& a, auto&& ev) {
      using T = typename std::decay_t<decltype(a)>::value_type;
      if constexpr (std::is_floating_point_v<T>) return ev(T(1) / a);
      else return Outcome::unsupported_because("xtensor has no reciprocal; 1 / a on integers is integer division");
    }).with_grad([](const auto&, const auto& r, const auto& g, auto) { return shares(g, -g * (r * r)); }),
    formula<Conversion::none>(Op::lerp, [](const auto& x, auto alpha) {
      using X = std::decay_t<decltype(x[0])>;
      using T = decltype(alpha);
      const X &a = x[0], &b = x[1], &w = x[2];
      return X(xt::where(w < T(0.5), X(a + w * (b - a)), X(b - (b - a) * (T(1) - w))));
    }).with_type(lerp_type).with_grad([](const auto& x, const auto&, const auto& g, auto alpha) {
      return shares(g, g * (decltype(alpha)(1) - x[2]), g * x[2], g * (x[1] - x[0]));
    }),
    formula<Conversion::where>(Op::where, [](const auto& x, auto alpha) {
      return std::decay_t<decltype(x[0])>(xt::where(xt::not_equal(x[0], decltype(alpha)(0)), x[1], x[2]));
    }).with_type(where_type).with_grad([](const auto& x, const auto&, const auto& g, auto alpha) {
      using X = std::decay_t<decltype(g)>;
      const auto cond = xt::not_equal(x[0], decltype(alpha)(0));
      return shares(g, X(), xt::where(cond, g, decltype(alpha)(0)), xt::where(cond, decltype(alpha)(0), g));
    }),
    // alpha: the case's value.
    formula<Conversion::none>(Op::addcmul,
        [](const auto& x, auto alpha) { return std::decay_t<decltype(x[0])>(x[0] + alpha * x[1] * x[2]); })
        .with_type(addcmul_type)
        .with_grad([](const auto& x, const auto&, const auto& g, auto alpha) {
          return shares(g, g, g * alpha * x[2], g * alpha * x[1]);
        }),
    formula<Conversion::none>(Op::addcdiv,
        [](const auto& x, auto alpha) { return std::decay_t<decltype(x[0])>(x[0] + alpha * x[1] / x[2]); })
        .with_type(addcdiv_type)
        .with_grad([](const auto& x, const auto&, const auto& g, auto alpha) {
          return shares(g, g, g * alpha / x[2], -g * alpha * x[1] / (x[2] * x[2]));
        }),
    formula<Conversion::none>(Op::diamond,
        [](const auto& x, auto) { return std::decay_t<decltype(x[0])>((x[0] + x[1]) * x[0]); })
        .with_type(diamond_type)
        .with_grad([](const auto& x, const auto&, const auto& g, auto) {
          return shares(g, g * (x[0] + x[1]) + g * x[0], g * x[0]);  // (a + b) * a
        }),
    // The 2-norm of a - b, 0-d; its gradient (a - b) * g / r, zero where the norm is zero.
    row<Form::binary, Conversion::usual>(Op::dist,
        [](const auto& a, const auto& b, auto&& ev) { return ev(xt::norm_l2(a - b)); })
        .with_grad([](const auto& x, const auto& r, const auto& g, auto alpha) {
          using X = std::decay_t<decltype(g)>;
          const X scale = xt::where(xt::equal(r, decltype(alpha)(0)), decltype(alpha)(0), X(g / r));
          return shares(g, (x[0] - x[1]) * scale, -(x[0] - x[1]) * scale);
        }),
    // xtensor has no floor_divide; for floating values people write xt::floor(a / b). On integers a / b is C++'s
    // truncating division (which traps on a zero divisor), not a floor division: not run. No gradient (LibTorch
    // 1.13 has no formula).
    row<Form::binary, Conversion::usual>(Op::floor_divide, [](const auto& a, const auto& b, auto&& ev) {
      using A = typename std::decay_t<decltype(a)>::value_type;
      using B = typename std::decay_t<decltype(b)>::value_type;
      if constexpr (std::is_floating_point_v<A> || std::is_floating_point_v<B>) return ev(xt::floor(a / b));
      else return Outcome::unsupported_because("xtensor has no floor_divide; a / b on integers truncates");
    }),
    // The bitwise operators on integers and bool; the shifts where C++ defines them (above). In place: xtensor has
    // &=, |=, ^= (xsemantic.hpp), and no <<= or >>=.
    row<Form::binary, Conversion::usual>(Op::bitwise_and, [](const auto& a, const auto& b, auto&& ev) {
      return on_integers(a, b, [&](const auto& x, const auto& y) { return ev(x & y); });
    }).with_forward(kNoFormulaForward).with_assignment(),
    row<Form::binary, Conversion::usual>(Op::bitwise_or, [](const auto& a, const auto& b, auto&& ev) {
      return on_integers(a, b, [&](const auto& x, const auto& y) { return ev(x | y); });
    }).with_forward(kNoFormulaForward).with_assignment(),
    row<Form::binary, Conversion::usual>(Op::bitwise_xor, [](const auto& a, const auto& b, auto&& ev) {
      return on_integers(a, b, [&](const auto& x, const auto& y) { return ev(x ^ y); });
    }).with_forward(kNoFormulaForward).with_assignment(),
    row<Form::binary, Conversion::promoted>(Op::bitwise_left_shift, [](const auto& a, const auto& b, auto&& ev) {
      return on_integers(a, b, [&](const auto& x, const auto& y) {
        return shifted(true, x, y, [&](const auto& p, const auto& q) { return ev(p << q); });
      });
    }).with_forward(kNoFormulaForward),
    row<Form::binary, Conversion::promoted>(Op::bitwise_right_shift, [](const auto& a, const auto& b, auto&& ev) {
      return on_integers(a, b, [&](const auto& x, const auto& y) {
        return shifted(false, x, y, [&](const auto& p, const auto& q) { return ev(p >> q); });
      });
    }).with_forward(kNoFormulaForward),
    // && and || on any element types (C++'s truth: not zero, NaN true), a bool result; a graph node too.
    row<Form::binary, Conversion::truth>(Op::logical_and, [](const auto& a, const auto& b, auto&& ev) { return ev(a && b); }),
    row<Form::binary, Conversion::truth>(Op::logical_or, [](const auto& a, const auto& b, auto&& ev) { return ev(a || b); }),
    // C++ has no ^^, and a != b compares whole expressions; PyTorch's meaning, for a graph node, written out.
    row<Form::binary, Conversion::none>(Op::logical_xor, [](const auto&, const auto&, auto&&) {
      return Outcome::unsupported_because("xtensor has no logical xor (C++ has no ^^ operator)");
    }).with_forward([](const auto& x, auto) {
      return std::decay_t<decltype(x[0])>(xt::not_equal(xt::cast<bool>(x[0]), xt::cast<bool>(x[1])));
    }),
    row<Form::binary, Conversion::none>(Op::logaddexp, [](const auto&, const auto&, auto&&) {
      return Outcome::unsupported_because("xtensor 0.24 has no logaddexp");
    }).with_forward(kNoFormulaForward));

// Calls f(row) with the row of op's out-of-place form; false when there is none.
template <class F>
bool with_pointwise_row(Op op, F&& f) {
  const Op base = out_of_place(op);
  return std::apply([&](const auto&... r) { return ((r.op == base ? (f(r), true) : false) || ...); }, kPointwiseRows);
}

}  // namespace bc::xtv
