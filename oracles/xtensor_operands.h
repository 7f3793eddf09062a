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
#include <stdexcept>
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
#include "oracles/xtensor_conversions.h"

namespace bc::xtv {

using XShape = xt::dynamic_shape<std::size_t>;

template <class T>
using Base = decltype(xt::adapt(std::declval<T*>(), std::size_t{}, xt::no_ownership(), std::declval<XShape>()));
template <class T>
using View = decltype(xt::strided_view(std::declval<Base<T>&>(), std::declval<const xt::xstrided_slice_vector&>()));
template <class T>
using Input = decltype(xt::broadcast(std::declval<const View<T>&>(), std::declval<const XShape&>()));

// The element types: bool, int64_t, float and double (the wide ones, which every path of the oracle is compiled
// for) and the narrow integers int8_t, uint8_t, int16_t and int32_t. The elementwise ops take any pair of them,
// each op compiled only for the types xtensor_conversions.h holds its operands in; the variants, the products and
// addcmul/addcdiv take the wide ones (docs/notes/xtensor-narrow-integers.md).
//
// BC_XTENSOR_FEW_DTYPES (the debug and sanitized builds of oracles/xtensor_adapter.cpp): operands are held in bool,
// int64_t and float only, so that xtensor's expressions are instantiated for 9 pairs of element types, not 64; a
// case with another dtype is unsupported (xtensor_oracle.cpp uncompiled_dtype), and never reaches held_buffer.
#ifdef BC_XTENSOR_FEW_DTYPES
template <template <class> class W>
using PerType = std::variant<W<bool>, W<int64_t>, W<float>>;
#else
template <template <class> class W>
using PerType = std::variant<W<bool>, W<int64_t>, W<float>, W<double>, W<int8_t>, W<uint8_t>, W<int16_t>, W<int32_t>>;
#endif
template <class T>
struct Same {
  using type = T;
};
// Whether operands of element type T are held in this build (all eight, or BC_XTENSOR_FEW_DTYPES's three).
template <class T, class V = PerType<Same>>
inline constexpr bool held_v = false;
template <class T, class... W>
inline constexpr bool held_v<T, std::variant<W...>> = (std::is_same_v<Same<T>, W> || ...);
template <class V>
struct WithMonostate;
template <class... W>
struct WithMonostate<std::variant<W...>> {
  using type = std::variant<std::monostate, W...>;
};
template <class T>
using Buffer = std::shared_ptr<T[]>;
template <class T>
using BasePtr = Base<T>*;
template <class T>
using ViewPtr = View<T>*;

// The element type of an expression (an Input, a view, an xarray).
template <class E>
using value_type_of = typename std::decay_t<E>::value_type;
inline Outcome not_compiled(const std::string& what) {
  return Outcome::unsupported_because("the xtensor oracle is not compiled for " + what +
                                      " (docs/notes/xtensor-narrow-integers.md)");
}
// Operands held in element types that xtensor_conversions.h never makes for this op reached it: a bug of the
// oracle's own, thrown so that the case's outcome says so.
inline Outcome not_reached(const Case& c) {
  throw std::logic_error(std::string("the xtensor oracle reached ") + to_string(c.op) +
                         " with operands its conversions never hold (xtensor_conversions.h)");
}

using AnyBuffer = PerType<Buffer>;
using AnyBase = typename WithMonostate<PerType<Base>>::type;
using AnyView = PerType<View>;
using AnyInput = PerType<Input>;
// The left side of a computed assignment: the base adaptor for a contiguous self (a container), a view otherwise.
using BaseSelf = PerType<BasePtr>;
using ViewSelf = PerType<ViewPtr>;
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

// Builds the plans' operands into `out`, with xtensor's view functions (above): each in its own dtype, or in the
// dtype `held` names for it (xtensor_conversions.h), its values converted as C++ converts them.
void build_operands(const std::vector<OperandPlan>& plans, Operands& out);
void build_operands(const std::vector<OperandPlan>& plans, const std::vector<DType>& held, Operands& out);
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
Outcome arithmetic(const Case& c, Op op, const AnyInput& a, const AnyInput& b);  // xtensor_pointwise.h
Outcome unary(Op op, const AnyInput& a);  // xtensor_pointwise.h's one-operand rows
Outcome reduction(const Case& c, Op op, const AnyInput& a);  // sum, mean, amax, amin, prod (xtensor_reduce.cpp)
Outcome where(const Case& c, const AnyInput& condition, const AnyInput& a, const AnyInput& b);
// fill_ and zero_: self.fill(value), the container's or the view's own (xtensor_fill.cpp).
Outcome fill(const Case& c, Op op, const AnySelf& self);
Outcome computed_assignment(const Case& c, const AnySelf& self, const AnyInput& other);  // checks, then one of:
Outcome assign_into_base(const Case& c, const BaseSelf& self, const AnyInput& other);
Outcome assign_into_view(const Case& c, const ViewSelf& self, const AnyInput& other);
// The products and fused products (xtensor_products.cpp), and addcmul/addcdiv with their unfused forms
// (xtensor_addc.cpp), on operands that share one dtype.
Outcome products(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans);
Outcome addc(const Case& c, Operands& ops, const std::vector<OperandPlan>& plans);

// The dtype name of a C++ element type: PyTorch's name where it has the type, else "uint16", "uint32", "uint64" (an
// unsigned result of C++'s conversions or xtensor's reducers), "other" for any other type.
template <class T>
std::string dtype_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_integral_v<T>)
    return (std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
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
// (a float to an integer or bool too, where PyTorch refuses the cast). Each element is computed in the expression's
// own value type and then converted, so the expression is evaluated first (one instantiation of xtensor's
// assignment per expression, not one per out dtype: docs/notes/build-time.md) and its xarray is what is assigned.
template <class T, class R>
Outcome assign_into(const OutSpec& spec, const R& evaluated) {
  xt::xarray<T> out(std::vector<std::size_t>(spec.shape.begin(), spec.shape.end()), T(0));
  out = evaluated;
  return result(out);
}
template <class E>
Outcome assign_out(const OutSpec& spec, E&& expression) {
  const auto evaluated = xt::eval(std::forward<E>(expression));
  switch (spec.dtype) {
    case DType::bool_: return assign_into<bool>(spec, evaluated);
    case DType::int64: return assign_into<int64_t>(spec, evaluated);
    case DType::float32: return assign_into<float>(spec, evaluated);
    case DType::float64: return assign_into<double>(spec, evaluated);
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

// a op= b, as xtensor's computed assignment does it, and the left side's values after it: add_ and sub_ as
// `a += alpha * b` (alpha 1 when the case has none), each for the pairs of element types that xtensor_conversions.h
// holds self and other in (compound_pair_v), and only those.
template <class S, class B>
Outcome assign(const Case& c, S& a, const B& b) {
  using TS = value_type_of<S>;
  using TB = value_type_of<B>;
  if (c.op == Op::add_ || c.op == Op::sub_) {
    return with_scalar(c, "alpha", [&](auto alpha) -> Outcome {
      if constexpr (compound_pair_v<TS, TB, true, decltype(alpha)>) {
        if (c.op == Op::add_) a += alpha * b;
        else a -= alpha * b;
        return result(a);
      } else {
        return not_reached(c);
      }
    });
  }
  if (c.op == Op::bitwise_and_ || c.op == Op::bitwise_or_ || c.op == Op::bitwise_xor_) {
    // xsemantic.hpp's &=, |=, ^=: C++'s bitwise operators, which take integers and bool only.
    if constexpr (std::is_integral_v<TS> && std::is_integral_v<TB>) {
      if (c.op == Op::bitwise_and_) a &= b;
      else if (c.op == Op::bitwise_or_) a |= b;
      else a ^= b;
      return result(a);
    } else {
      return Outcome::unsupported_because("C++ has no bitwise operator for a floating operand: xtensor's " +
                                          std::string(to_string(c.op)) + " does not compile");
    }
  }
  if (c.op != Op::mul_ && c.op != Op::div_)
    return Outcome::unsupported_because(std::string("xtensor has no computed assignment for ") + to_string(c.op));
  if constexpr (compound_pair_v<TS, TB, false>) {
    if (c.op == Op::mul_) a *= b;
    else a /= b;
    return result(a);
  } else {
    return not_reached(c);
  }
}

// Calls f(T{}) with the wide value type the oracle holds dtype t in (the products and addcmul/addcdiv, whose
// operands share one dtype, are compiled for those only); float16 and bfloat16 have none (xtensor_oracle.cpp answers
// unsupported for them before any operand is built).
template <class F>
Outcome with_value_type(DType t, F&& f) {
  switch (t) {
    case DType::bool_: return f(bool{});
    case DType::int64: return f(int64_t{});
    case DType::float32: return f(float{});
    case DType::float64:
      if constexpr (held_v<double>) return f(double{});
      break;
    case DType::int8:
    case DType::uint8:
    case DType::int16:
    case DType::int32: return not_compiled("the products and addcmul/addcdiv with " + std::string(to_string(t)));
    case DType::float16:
    case DType::bfloat16: break;
  }
  return Outcome::unsupported_because(std::string("the xtensor oracle has no value type for ") + to_string(t));
}

}  // namespace bc::xtv
