// The operands of a value-level case as xtensor sees them, shared by the xtensor value oracle's translation units
// (split so that they compile in parallel): each operand's base is an xt::adapt over a fresh buffer holding the
// plan's base values (an overlapping operand has none: it views an earlier operand's base), and the operand is a
// real xtensor view of that base, made with xtensor's own view functions, never a copy:
//
//   contiguous   the whole base, xt::strided_view(base, {}); as self of an in-place op the adaptor itself, as
//                LibTorch's contiguous self is the base tensor itself
//   transposed   xt::transpose(base, {..., n-1, n-2})
//   strided      xt::strided_view(base, {xt::ellipsis(), xt::range(0, 2n, 2)})
//   expanded     xt::broadcast(base, shape); as self of an in-place op, where xt::broadcast cannot be written to,
//                xt::strided_view(base, shape, strides with a 0, offset), xtensor's as_strided
//   overlapping  xt::strided_view(base of the viewed operand, shape, strides, offset)
//
// transpose and both strided_view forms return one type over a given adaptor (xstrided_view<Base<T>&, svector>),
// so every layout is a View<T>. An operand that the op reads is then handed over as xt::broadcast(view, shape):
// the stretch for an expanded operand, the identity for the others, so that one Input<T> type per dtype covers
// every layout and the ops are instantiated once per pair of dtypes, not once per pair of layouts too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xeval.hpp>
#include <xtensor/xstrided_view.hpp>

#include "harness/case.h"
#include "harness/operands.h"
#include "harness/outcome.h"

namespace bc::xtv {

using XShape = xt::dynamic_shape<std::size_t>;

template <class T>
using Base = decltype(xt::adapt(std::declval<T*>(), std::size_t{}, xt::no_ownership(), std::declval<XShape>()));
template <class T>
using View = decltype(xt::strided_view(std::declval<Base<T>&>(), std::declval<const xt::xstrided_slice_vector&>()));
template <class T>
using Input = decltype(xt::broadcast(std::declval<const View<T>&>(), std::declval<const XShape&>()));

using AnyBuffer = std::variant<std::shared_ptr<bool[]>, std::shared_ptr<int64_t[]>, std::shared_ptr<float[]>,
                               std::shared_ptr<double[]>>;
using AnyBase = std::variant<std::monostate, Base<bool>, Base<int64_t>, Base<float>, Base<double>>;
using AnyView = std::variant<View<bool>, View<int64_t>, View<float>, View<double>>;
using AnyInput = std::variant<Input<bool>, Input<int64_t>, Input<float>, Input<double>>;
// The left side of a computed assignment: the base adaptor for a contiguous self (a container), a view otherwise.
using BaseSelf = std::variant<Base<bool>*, Base<int64_t>*, Base<float>*, Base<double>*>;
using ViewSelf = std::variant<View<bool>*, View<int64_t>*, View<float>*, View<double>*>;
using AnySelf = std::variant<BaseSelf, ViewSelf>;

// Every operand of one case. Views refer to the bases and inputs to the views, so the deques keep them in place;
// an Operands is built where it stays.
struct Operands {
  std::vector<AnyBuffer> buffers;  // per operand; empty for an overlapping one
  std::deque<AnyBase> bases;       // per operand; monostate for an overlapping one
  std::deque<AnyView> views;       // per operand: what the op sees; then an expanded self's writable view
  std::vector<AnyInput> inputs;    // per operand: the view as an operand the op reads
  Operands() = default;
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;
};

// Builds the plans' operands into `out`, with xtensor's view functions (above).
void build_operands(const std::vector<OperandPlan>& plans, Operands& out);
// The left side of an in-place op on operand 0.
AnySelf self_of(const OperandPlan& plan, Operands& operands);

// xtensor's computed assignment into a view (xsemantic.hpp: xview_semantic::operator=) broadcasts the result to the
// view's shape with xt::broadcast, which keeps an operand's larger size where the view has a 1, and then copies
// that temporary into the view element by element without comparing sizes (xstrided_view.hpp:
// assign_temporary_impl): a result larger than the view is written past the view's end (a heap overflow under
// AddressSanitizer). Whether that would happen, decided with xtensor's own broadcast_shape, so that it is never run.
bool writes_past_the_view(const XShape& self, const XShape& result);

// An in-place write into operand 0 of element type T: `write(self)` assigns the result to the base adaptor (a
// contiguous self) or to self's view and returns the outcome; a result that would be copied past a view's end
// (`result_shape` larger than the view) is not run.
template <class T, class F>
Outcome write_into_self(const std::vector<OperandPlan>& plans, Operands& ops, const XShape& result_shape, F&& write) {
  const AnySelf self = self_of(plans[0], ops);
  if (const auto* base = std::get_if<BaseSelf>(&self)) return write(*std::get<Base<T>*>(*base));
  View<T>& view = *std::get<View<T>*>(std::get<ViewSelf>(self));
  if (writes_past_the_view(XShape(view.shape().begin(), view.shape().end()), result_shape))
    return Outcome::unsupported_because(
        "xtensor's assignment into a view copies a result larger than the view past the view's end "
        "(xview_semantic::operator=, xstrided_view assign_temporary_impl): undefined behaviour, not run");
  return write(view);
}

// The ops, in translation units of their own. They may throw xtensor's exceptions; run_xtensor_values maps them.
Outcome arithmetic(const Case& c, Op op, const AnyInput& a, const AnyInput& b);  // add ... ge, hypot, dist
Outcome unary(Op op, const AnyInput& a);  // neg, abs, sqrt, exp, log, sign, reciprocal
Outcome reduction(const Case& c, Op op, const AnyInput& a);  // sum, mean, amax, amin, prod (xtensor_reduce.cpp)
Outcome where(const AnyInput& condition, const AnyInput& a, const AnyInput& b);
// fill_ and zero_: self.fill(value), the container's or the view's own (xtensor_fill.cpp).
Outcome fill(const Case& c, Op op, const AnySelf& self);
Outcome computed_assignment(const Case& c, const AnySelf& self, const AnyInput& other);  // checks, then one of:
Outcome assign_into_base(const Case& c, const BaseSelf& self, const AnyInput& other);
Outcome assign_into_view(const Case& c, const ViewSelf& self, const AnyInput& other);
// The products and fused products (xtensor_products.cpp), and addcmul/addcdiv with their unfused forms
// (xtensor_addc.cpp), on operands that share one dtype.
Outcome products(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans);
Outcome addc(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans);

template <class T>
std::string dtype_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, long>) return "int64";
  else if constexpr (std::is_same_v<T, int>) return "int32";
  else if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else return "other";
}

// An expression's shape, value type and elements, row-major (an integer type's exactly, as int64_t).
template <class E>
Outcome result(const E& r) {
  using T = typename E::value_type;
  Outcome o = Outcome::success(Shape(r.shape().begin(), r.shape().end()), dtype_name<T>());
  if constexpr (std::is_integral_v<T>) {
    std::vector<int64_t> ints;
    for (const auto& v : r) ints.push_back(static_cast<int64_t>(v));
    o.values = Values(std::move(ints));
  } else {
    std::vector<double> floats;
    for (const auto& v : r) floats.push_back(static_cast<double>(v));
    o.values = Values(std::move(floats));
  }
  return o;
}

// An expression evaluated into an xarray of its own value type, as a result.
template <class E>
Outcome evaluate(E&& expression) {
  auto r = xt::eval(std::forward<E>(expression));
  return result(r);
}

// `out = expression` into an existing xarray of the out= spec's value type and shape, as people reuse a container:
// xtensor's assignment resizes it to the expression's shape without a word, and converts each element as C++ does
// (a float to an integer or bool too, where PyTorch refuses the cast).
template <class T, class E>
Outcome assign_into(const OutSpec& spec, E&& expression) {
  xt::xarray<T> out(std::vector<std::size_t>(spec.shape.begin(), spec.shape.end()), T(0));
  out = std::forward<E>(expression);
  return result(out);
}
template <class E>
Outcome assign_out(const OutSpec& spec, E&& expression) {
  switch (spec.dtype) {
    case DType::bool_: return assign_into<bool>(spec, std::forward<E>(expression));
    case DType::int64: return assign_into<int64_t>(spec, std::forward<E>(expression));
    case DType::float32: return assign_into<float>(spec, std::forward<E>(expression));
    case DType::float64: return assign_into<double>(spec, std::forward<E>(expression));
    case DType::int8: case DType::uint8: case DType::int16: case DType::int32: case DType::float16:
    case DType::bfloat16: break;  // refused before (xtensor_oracle.cpp: unsupported_dtype)
  }
  return Outcome::unsupported_because("no xarray for out's dtype");
}

// A scalar (alpha, beta, value) has no xtensor form: `a + alpha * b`, with alpha a C++ int64_t or double as the
// case writes it (2 or 2.0), so that C++'s conversions apply to it as Python's would to an int or a float.
template <class F>
Outcome with_scalar(const Case& c, const std::string& name, F&& f) {
  const Scalar s = scalar_of(c, name);
  if (s.integral) return f(static_cast<int64_t>(s.value));
  return f(s.value);
}

// a op= b, as xtensor's computed assignment does it, and the left side's values after it.
template <class S, class B>
Outcome assign(const Case& c, S& a, const B& b) {
  if (c.op == "add_" || c.op == "sub_") {
    return with_scalar(c, "alpha", [&](auto alpha) {
      if (c.op == "add_") a += alpha * b;
      else a -= alpha * b;
      return result(a);
    });
  }
  if (c.op == "mul_") a *= b;
  else a /= b;
  return result(a);
}

// Calls f(T{}) with the value type the oracle holds dtype t in (bool, int64_t, float, double); the other dtypes
// are not instantiated (xtensor_oracle.cpp answers unsupported for them before any operand is built).
template <class F>
Outcome with_value_type(DType t, F&& f) {
  switch (t) {
    case DType::bool_: return f(bool{});
    case DType::int64: return f(int64_t{});
    case DType::float32: return f(float{});
    case DType::float64: return f(double{});
    case DType::int8:
    case DType::uint8:
    case DType::int16:
    case DType::int32:
    case DType::float16:
    case DType::bfloat16: break;
  }
  return Outcome::unsupported_because(std::string("the xtensor oracle has no value type for ") + to_string(t));
}

}  // namespace bc::xtv
