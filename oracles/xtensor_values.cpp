#include "oracles/xtensor_values.h"

#include <cstdint>
#include <memory>
#include <type_traits>
#include <variant>

#include <xtensor/xadapt.hpp>
#include <xtensor/xarray.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>

#include "harness/operands.h"

namespace bc {
namespace {

template <class T>
using ViewOf = decltype(xt::adapt(static_cast<T*>(nullptr), std::size_t{}, xt::no_ownership(),
                                  std::vector<std::size_t>{}, std::vector<std::ptrdiff_t>{}));
using AnyView = std::variant<ViewOf<bool>, ViewOf<int64_t>, ViewOf<float>, ViewOf<double>>;
using AnyBuffer = std::variant<std::shared_ptr<bool[]>, std::shared_ptr<int64_t[]>, std::shared_ptr<float[]>,
                               std::shared_ptr<double[]>>;

template <class T>
std::string dtype_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, long>) return "int64";
  else if constexpr (std::is_same_v<T, int>) return "int32";
  else if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else return "other";
}

template <class T>
AnyBuffer make_buffer(const std::vector<double>& values) {
  std::shared_ptr<T[]> data(new T[values.empty() ? 1 : values.size()]);
  for (size_t k = 0; k < values.size(); ++k) data[k] = static_cast<T>(values[k]);
  return data;
}

AnyBuffer buffer_for(DType t, const std::vector<double>& values) {
  switch (t) {
    case DType::bool_: return make_buffer<bool>(values);
    case DType::int64: return make_buffer<int64_t>(values);
    case DType::float32: return make_buffer<float>(values);
    default: return make_buffer<double>(values);
  }
}

// An adaptor declares as many elements as its shape has (xtensor insists, or it tries to resize the buffer); the
// strides then reach into the base as the plan says, stride 0 and overlaps included.
AnyView view_of(const AnyBuffer& buffer, const OperandPlan& p) {
  const std::vector<std::size_t> shape(p.shape.begin(), p.shape.end());
  const std::vector<std::ptrdiff_t> strides(p.strides.begin(), p.strides.end());
  const auto elements = static_cast<std::size_t>(numel(p.shape));
  return std::visit(
      [&](const auto& data) -> AnyView {
        return xt::adapt(data.get() + p.offset, elements, xt::no_ownership(), shape, strides);
      },
      buffer);
}

template <class Array>
Outcome result(const Array& r) {
  using T = typename Array::value_type;
  Outcome o = Outcome::success(Shape(r.shape().begin(), r.shape().end()), dtype_name<T>());
  for (const auto& v : r) o.values.push_back(static_cast<double>(v));
  return o;
}

template <class E>
Outcome evaluate(E&& expression) {
  auto r = xt::eval(std::forward<E>(expression));
  return result(r);
}

// alpha has no xtensor form: `a + alpha * b`, with alpha a C++ int64_t or double as the case writes it (2 or 2.0),
// so that C++'s conversions apply to it as Python's would to an int or a float.
template <class F>
Outcome with_alpha(const Case& c, F&& f) {
  if (!c.alpha || c.alpha_is_integer) return f(static_cast<int64_t>(c.alpha.value_or(1)));
  return f(*c.alpha);
}

template <class A, class B>
Outcome binary(const Case& c, A& a, B& b) {
  const std::string& op = c.op;
  if (op == "add") return c.alpha ? with_alpha(c, [&](auto alpha) { return evaluate(a + alpha * b); }) : evaluate(a + b);
  if (op == "sub") return c.alpha ? with_alpha(c, [&](auto alpha) { return evaluate(a - alpha * b); }) : evaluate(a - b);
  if (op == "mul") return evaluate(a * b);
  if (op == "div") return evaluate(a / b);
  if (op == "pow") return evaluate(xt::pow(a, b));
  if (op == "atan2") return evaluate(xt::atan2(a, b));
  if (op == "fmod") return evaluate(xt::fmod(a, b));
  if (op == "maximum") return evaluate(xt::maximum(a, b));
  if (op == "minimum") return evaluate(xt::minimum(a, b));
  if (op == "eq") return evaluate(xt::equal(a, b));
  if (op == "ne") return evaluate(xt::not_equal(a, b));
  if (op == "lt") return evaluate(a < b);
  if (op == "le") return evaluate(a <= b);
  if (op == "gt") return evaluate(a > b);
  if (op == "ge") return evaluate(a >= b);
  return Outcome::unsupported_because("xtensor has no " + op + " with PyTorch's meaning");
}

template <class A, class B>
Outcome computed_assignment(const Case& c, A& a, B& b) {
  const std::string& op = c.op;
  if (op == "add_" || op == "sub_") {
    return with_alpha(c, [&](auto alpha) {
      if (op == "add_") a += alpha * b;
      else a -= alpha * b;
      return result(a);
    });
  }
  if (op == "mul_") a *= b;
  else if (op == "div_") a /= b;
  else return Outcome::unsupported_because("xtensor has no computed assignment for " + op);
  return result(a);
}

}  // namespace

Outcome run_xtensor_values(const Case& c) {
  if (c.op == "lerp" || c.op == "lerp_" || c.op == "remainder" || c.op == "remainder_")
    return Outcome::unsupported_because("xtensor has no " + c.op + " with PyTorch's meaning");
  const std::vector<OperandPlan> plans = plan_operands(c);
  // xtensor's strided containers assume their storage holds exactly as many elements as their shape (xcontainer.hpp
  // resize), so an adaptor cannot stand for a strided, expanded, transposed-over-a-larger-base or overlapping view
  // safely: those layouts wait for a version built from xt::view / xt::transpose / xt::broadcast.
  for (const OperandPlan& p : plans)
    if (p.layout != Layout::contiguous)
      return Outcome::unsupported_because(std::string("the xtensor oracle runs value-level cases on contiguous "
                                                      "operands only, not ") + to_string(p.layout));
  std::vector<AnyBuffer> buffers;
  std::vector<AnyView> views;
  try {
    for (const OperandPlan& p : plans) {
      buffers.push_back(p.views_operand >= 0 ? buffers[static_cast<size_t>(p.views_operand)]
                                             : buffer_for(p.dtype, p.base_values));
      views.push_back(view_of(buffers.back(), p));
    }
    if (c.op == "where") {
      auto* cond = std::get_if<ViewOf<bool>>(&views[0]);
      if (!cond) return Outcome::unsupported_because("xt::where is only run with a bool condition");
      return std::visit([&](auto& a, auto& b) { return evaluate(xt::where(*cond, a, b)); }, views[1], views[2]);
    }
    const bool inplace = c.op.back() == '_';
    return std::visit(
        [&](auto& a, auto& b) { return inplace ? computed_assignment(c, a, b) : binary(c, a, b); },
        views[0], views[1]);
  } catch (const xt::broadcast_error& e) {
    return Outcome::failure(ErrorKind::broadcast, e.what());
  } catch (const std::exception& e) {
    return Outcome::failure(ErrorKind::other, e.what());
  }
}

}  // namespace bc
