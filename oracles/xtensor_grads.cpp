#include "oracles/xtensor_grads.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnorm.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xstrides.hpp>

#include "harness/operands.h"

namespace bc {

std::vector<std::size_t> sum_to_axes(const Shape& from, const Shape& to) {
  std::vector<std::size_t> axes;
  const std::ptrdiff_t lead = static_cast<std::ptrdiff_t>(from.size()) - static_cast<std::ptrdiff_t>(to.size());
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(from.size()); ++i)
    if (i < lead || (i - lead >= 0 && to[static_cast<size_t>(i - lead)] == 1 && from[static_cast<size_t>(i)] != 1))
      axes.push_back(static_cast<std::size_t>(i));
  return axes;
}

namespace {

using A = xt::xarray<double>;
using XShape = std::vector<std::size_t>;

// The formulas this oracle has (forward, result type and gradient), one per differentiable pointwise op; an op's
// in-place form shares its formula.
enum class Formula {
  add, sub, mul, div, pow, atan2, fmod, remainder, maximum, minimum, hypot, lerp, where, addcmul, addcdiv, diamond,
  dist, neg, abs, sqrt, exp, log, sign, reciprocal
};

std::optional<Formula> formula_of(Op op) {
  switch (op) {
    case Op::add: case Op::add_: return Formula::add;
    case Op::sub: case Op::sub_: return Formula::sub;
    case Op::mul: case Op::mul_: return Formula::mul;
    case Op::div: case Op::div_: return Formula::div;
    case Op::pow: case Op::pow_: return Formula::pow;
    case Op::atan2: case Op::atan2_: return Formula::atan2;
    case Op::fmod: case Op::fmod_: return Formula::fmod;
    case Op::remainder: case Op::remainder_: return Formula::remainder;
    case Op::maximum: return Formula::maximum;
    case Op::minimum: return Formula::minimum;
    case Op::hypot: case Op::hypot_: return Formula::hypot;
    case Op::lerp: case Op::lerp_: return Formula::lerp;
    case Op::where: return Formula::where;
    case Op::addcmul: case Op::addcmul_: return Formula::addcmul;
    case Op::addcdiv: case Op::addcdiv_: return Formula::addcdiv;
    case Op::diamond: return Formula::diamond;
    case Op::dist: return Formula::dist;
    case Op::neg: return Formula::neg;
    case Op::abs: return Formula::abs;
    case Op::sqrt: return Formula::sqrt;
    case Op::exp: return Formula::exp;
    case Op::log: return Formula::log;
    case Op::sign: return Formula::sign;
    case Op::reciprocal: return Formula::reciprocal;
    // Comparisons have no gradient (a graph computes them with compare(), below); floor_divide has no derivative in
    // LibTorch 1.13; the rest are not pointwise, or are computed elsewhere (the products).
    case Op::eq: case Op::ne: case Op::lt: case Op::le: case Op::gt: case Op::ge: case Op::eq_: case Op::ne_:
    case Op::lt_: case Op::le_: case Op::gt_: case Op::ge_: case Op::floor_divide: case Op::floor_divide_:
    case Op::unfused_addcmul: case Op::unfused_addcdiv: case Op::unfused_addcmul_: case Op::unfused_addcdiv_:
    case Op::broadcast_shapes: case Op::expand: case Op::sum_to: case Op::matmul: case Op::mm: case Op::bmm:
    case Op::mv: case Op::dot: case Op::outer: case Op::addmm: case Op::addmv: case Op::addr: case Op::baddbmm:
    case Op::addbmm: case Op::addmm_: case Op::addmv_: case Op::addr_: case Op::baddbmm_: case Op::addbmm_:
    case Op::graph: case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod: case Op::fill_:
    case Op::zero_:
      return std::nullopt;
  }
  return std::nullopt;
}

bool is_unary(Formula f) {
  return f == Formula::neg || f == Formula::abs || f == Formula::sqrt || f == Formula::exp || f == Formula::log ||
         f == Formula::sign || f == Formula::reciprocal;
}

// --- The forward result's dtype: the value type of the xtensor expression over the operands' element types (C++'s
// conversions), as the value oracle reports it. Only the types are computed here: nothing is evaluated.

template <class T>
struct Tag {
  using type = T;
};
using AnyTag = std::variant<Tag<bool>, Tag<int64_t>, Tag<float>, Tag<double>>;

AnyTag tag_of(DType t) {
  switch (t) {
    case DType::bool_: return Tag<bool>{};
    case DType::int64: return Tag<int64_t>{};
    case DType::float32: return Tag<float>{};
    default: return Tag<double>{};
  }
}

template <class T>
std::optional<DType> dtype_for() {
  if constexpr (std::is_same_v<T, bool>) return DType::bool_;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::int64;
  else if constexpr (std::is_same_v<T, float>) return DType::float32;
  else if constexpr (std::is_same_v<T, double>) return DType::float64;
  else return std::nullopt;  // int, from bool + bool
}

// Declared only, to name an operand of element type T inside decltype.
template <class T>
const xt::xarray<T>& operand();

#define BC_XT_TYPE(expression) dtype_for<typename std::decay_t<decltype(expression)>::value_type>()

// The expressions below are those of `forward`, with the operands' own element types (alpha as the case writes it:
// an int64_t or a double; sub converts as add does).
std::optional<DType> unary_type(Formula f, DType t) {
  return std::visit(
      [&](auto ta) -> std::optional<DType> {
        using TA = typename decltype(ta)::type;
        switch (f) {
          case Formula::neg: return BC_XT_TYPE(-operand<TA>());
          case Formula::abs: return BC_XT_TYPE(xt::abs(operand<TA>()));
          case Formula::sqrt: return BC_XT_TYPE(xt::sqrt(operand<TA>()));
          case Formula::exp: return BC_XT_TYPE(xt::exp(operand<TA>()));
          case Formula::log: return BC_XT_TYPE(xt::log(operand<TA>()));
          case Formula::sign: return BC_XT_TYPE(xt::sign(operand<TA>()));
          case Formula::reciprocal: return BC_XT_TYPE(TA(1) / operand<TA>());
          case Formula::add: case Formula::sub: case Formula::mul: case Formula::div: case Formula::pow:
          case Formula::atan2: case Formula::fmod: case Formula::remainder: case Formula::maximum:
          case Formula::minimum: case Formula::hypot: case Formula::lerp: case Formula::where: case Formula::addcmul:
          case Formula::addcdiv: case Formula::diamond: case Formula::dist:
            break;  // not unary: forward_type
        }
        return std::nullopt;
      },
      tag_of(t));
}

std::optional<DType> binary_type(Formula f, const Case& c) {
  return std::visit(
      [&](auto ta, auto tb) -> std::optional<DType> {
        using TA = typename decltype(ta)::type;
        using TB = typename decltype(tb)::type;
        switch (f) {
          case Formula::add: case Formula::sub:
            if (!c.scalars.count("alpha")) return BC_XT_TYPE(operand<TA>() + operand<TB>());
            if (scalar_of(c, "alpha").integral) return BC_XT_TYPE(operand<TA>() + int64_t{} * operand<TB>());
            return BC_XT_TYPE(operand<TA>() + double{} * operand<TB>());
          case Formula::mul: return BC_XT_TYPE(operand<TA>() * operand<TB>());
          case Formula::div: return BC_XT_TYPE(operand<TA>() / operand<TB>());
          case Formula::pow: return BC_XT_TYPE(xt::pow(operand<TA>(), operand<TB>()));
          case Formula::atan2: return BC_XT_TYPE(xt::atan2(operand<TA>(), operand<TB>()));
          case Formula::fmod: return BC_XT_TYPE(xt::fmod(operand<TA>(), operand<TB>()));
          case Formula::remainder: return BC_XT_TYPE(xt::fmod(operand<TA>(), operand<TB>()) + operand<TB>());
          case Formula::maximum: return BC_XT_TYPE(xt::maximum(operand<TA>(), operand<TB>()));
          case Formula::minimum: return BC_XT_TYPE(xt::minimum(operand<TA>(), operand<TB>()));
          case Formula::hypot: return BC_XT_TYPE(xt::hypot(operand<TA>(), operand<TB>()));
          case Formula::dist: return BC_XT_TYPE(xt::norm_l2(operand<TA>() - operand<TB>()));
          case Formula::diamond: return BC_XT_TYPE((operand<TA>() + operand<TB>()) * operand<TA>());
          case Formula::lerp: case Formula::where: case Formula::addcmul: case Formula::addcdiv: case Formula::neg:
          case Formula::abs: case Formula::sqrt: case Formula::exp: case Formula::log: case Formula::sign:
          case Formula::reciprocal:
            break;  // not binary: forward_type
        }
        return std::nullopt;
      },
      tag_of(dtype_of(c, 0)), tag_of(dtype_of(c, 1)));
}

std::optional<DType> forward_type(Formula f, const Case& c) {
  if (is_unary(f)) return unary_type(f, dtype_of(c, 0));
  if (f == Formula::lerp) return dtype_of(c, 0);  // one dtype for all three (checked before)
  if (f == Formula::where)
    return std::visit(
        [](auto ta, auto tb) {
          using TA = typename decltype(ta)::type;
          using TB = typename decltype(tb)::type;
          return BC_XT_TYPE(xt::where(operand<bool>(), operand<TA>(), operand<TB>()));
        },
        tag_of(dtype_of(c, 1)), tag_of(dtype_of(c, 2)));
  if (f == Formula::addcmul || f == Formula::addcdiv)  // c + value * a * b (or / b), value an int64_t or a double
    return std::visit(
        [&](auto tc, auto ta, auto tb) -> std::optional<DType> {
          using TC = typename decltype(tc)::type;
          using TA = typename decltype(ta)::type;
          using TB = typename decltype(tb)::type;
          const bool integral = scalar_of(c, "value").integral;
          if (f == Formula::addcmul)
            return integral ? BC_XT_TYPE(operand<TC>() + int64_t{} * operand<TA>() * operand<TB>())
                            : BC_XT_TYPE(operand<TC>() + double{} * operand<TA>() * operand<TB>());
          return integral ? BC_XT_TYPE(operand<TC>() + int64_t{} * operand<TA>() / operand<TB>())
                          : BC_XT_TYPE(operand<TC>() + double{} * operand<TA>() / operand<TB>());
        },
        tag_of(dtype_of(c, 0)), tag_of(dtype_of(c, 1)), tag_of(dtype_of(c, 2)));
  return binary_type(f, c);
}

#undef BC_XT_TYPE

// --- Values, all in double.

// A value as a tensor of dtype t stores it (float32 rounds; float64 keeps it).
A stored(A a, DType t) {
  if (t == DType::float32)
    for (double& v : a) v = static_cast<double>(static_cast<float>(v));
  return a;
}

A array_of(const XShape& shape, const std::vector<double>& values) {
  A a = A::from_shape(shape);
  std::copy(values.begin(), values.end(), a.begin());
  return a;
}

// The forward result over operands already broadcast to one shape, computed in T (the result's or a graph node's
// computation dtype: forward_in, below): xtensor's functions of a float array are the C library's float functions.
// lerp and remainder have no xtensor function with PyTorch's meaning (xt::remainder is IEEE's), so they are written
// out: lerp as LibTorch 1.13 evaluates it (from start below weight 0.5, from end above), remainder as fmod moved to
// the divisor's sign.
template <class T>
xt::xarray<T> forward(Formula f, const std::vector<xt::xarray<T>>& x, T alpha) {
  using X = xt::xarray<T>;
  const X& a = x[0];
  switch (f) {  // the unary ops read x[0] only
    case Formula::neg: return -a;
    case Formula::abs: return xt::abs(a);
    case Formula::sqrt: return xt::sqrt(a);
    case Formula::exp: return xt::exp(a);
    case Formula::log: return xt::log(a);
    case Formula::sign: return xt::sign(a);
    case Formula::reciprocal: return T(1) / a;
    case Formula::addcmul: return a + alpha * x[1] * x[2];  // alpha: the case's value
    case Formula::addcdiv: return a + alpha * x[1] / x[2];
    case Formula::add: return a + alpha * x[1];
    case Formula::sub: return a - alpha * x[1];
    case Formula::mul: return a * x[1];
    case Formula::div: return a / x[1];
    case Formula::pow: return xt::pow(a, x[1]);
    case Formula::atan2: return xt::atan2(a, x[1]);
    case Formula::fmod: return xt::fmod(a, x[1]);
    case Formula::remainder: {
      const X& b = x[1];
      const X m = xt::fmod(a, b);
      return xt::where(xt::not_equal(m, T(0)) && xt::not_equal(b < T(0), m < T(0)), X(m + b), m);
    }
    case Formula::maximum: return xt::maximum(a, x[1]);
    case Formula::minimum: return xt::minimum(a, x[1]);
    case Formula::lerp: {
      const X& b = x[1];
      const X& w = x[2];
      return xt::where(w < T(0.5), X(a + w * (b - a)), X(b - (b - a) * (T(1) - w)));
    }
    case Formula::where: return xt::where(xt::not_equal(a, T(0)), x[1], x[2]);
    case Formula::hypot: return xt::hypot(a, x[1]);
    case Formula::dist: return X(xt::norm_l2(a - x[1]));  // 0-d
    case Formula::diamond: return (a + x[1]) * a;
  }
  throw std::logic_error("xtensor_grads.cpp: a formula without a forward");
}

// LibTorch's div(a, b, rounding_mode="floor") on floating values (div_floor_floating), which is not floor(a / b)
// at the edges: the quotient comes from fmod so that it is exact (one less where fmod's sign differs from b's,
// so -2 // inf is -1 and inf // 2 is nan), rounded to the nearest integer when it lands just below one; a zero
// quotient keeps the sign of a / b; a zero divisor gives a / b.
template <class T>
xt::xarray<T> floor_divide(const xt::xarray<T>& a, const xt::xarray<T>& b) {
  using X = xt::xarray<T>;
  const X mod = xt::fmod(a, b);
  X div = (a - mod) / b;
  div = xt::where(xt::not_equal(mod, T(0)) && xt::not_equal(b < T(0), mod < T(0)), X(div - T(1)), div);
  X floored = xt::floor(div);
  floored = xt::where(div - floored > T(0.5), X(floored + T(1)), floored);
  return xt::where(xt::equal(b, T(0)), X(a / b), X(xt::where(xt::not_equal(div, T(0)), floored, X(T(0) * (a / b)))));
}

// Each operand's gradient in the result's shape, from the upstream gradient g and the forward result r, in T (the
// unary ops as derivatives.yaml writes them).
template <class T>
std::vector<xt::xarray<T>> full_grads(Formula f, const std::vector<xt::xarray<T>>& x, const xt::xarray<T>& r,
                                      const xt::xarray<T>& g, T alpha) {
  using X = xt::xarray<T>;
  const X& a = x[0];
  switch (f) {  // the unary ops read x[0] only
    case Formula::neg: return {-g};
    case Formula::abs: return {g * xt::sign(a)};
    case Formula::sqrt: return {g / (T(2) * r)};
    case Formula::exp: return {g * r};
    case Formula::log: return {g / a};
    case Formula::sign: return {X(xt::zeros_like(g))};
    case Formula::reciprocal: return {-g * (r * r)};
    case Formula::addcmul: return {g, g * alpha * x[2], g * alpha * x[1]};
    case Formula::addcdiv: return {g, g * alpha / x[2], -g * alpha * x[1] / (x[2] * x[2])};
    case Formula::add: return {g, g * alpha};
    case Formula::sub: return {g, -g * alpha};
    case Formula::mul: return {g * x[1], g * a};
    case Formula::div: return {g / x[1], -g * (a / x[1]) / x[1]};
    case Formula::pow: {
      const X& b = x[1];
      return {xt::where(xt::equal(b, T(0)), T(0), X(g * b * xt::pow(a, X(b - T(1))))),
              g * xt::where(xt::equal(a, T(0)) && b >= T(0), T(0), X(r * xt::log(a)))};
    }
    case Formula::atan2: {
      const X& b = x[1];
      const X recip = T(1) / (a * a + b * b);
      return {g * b * recip, g * -a * recip};
    }
    case Formula::fmod: return {g, -g * xt::trunc(a / x[1])};
    case Formula::remainder: return {g, -g * floor_divide(a, x[1])};
    case Formula::maximum: case Formula::minimum: {
      // Ties share the gradient; the side that loses gets none.
      const X& b = x[1];
      const X split = xt::where(xt::equal(a, b), X(g / T(2)), g);
      const X a_loses = f == Formula::maximum ? X(a < b) : X(a > b);
      const X b_loses = f == Formula::maximum ? X(a > b) : X(a < b);
      return {xt::where(xt::not_equal(a_loses, T(0)), T(0), split),
              xt::where(xt::not_equal(b_loses, T(0)), T(0), split)};
    }
    case Formula::lerp: {
      const X& w = x[2];
      return {g * (T(1) - w), g * w, g * (x[1] - a)};
    }
    case Formula::where: {
      const auto cond = xt::not_equal(a, T(0));
      return {X(), xt::where(cond, g, T(0)), xt::where(cond, T(0), g)};
    }
    case Formula::hypot: return {g * a / r, g * x[1] / r};
    case Formula::dist: {  // (a - b) * g / r, zero where the norm is zero; r and g are 0-d
      const X scale = xt::where(xt::equal(r, T(0)), T(0), X(g / r));
      return {(a - x[1]) * scale, -(a - x[1]) * scale};
    }
    case Formula::diamond: return {g * (a + x[1]) + g * a, g * a};  // (a + b) * a
  }
  throw std::logic_error("xtensor_grads.cpp: a formula without a gradient");
}

// sum_to with xtensor: xt::sum over the reduced axes, keeping them, then reshaped to the input's shape.
A reduce_to(const A& g, const Shape& to) {
  const std::vector<std::size_t> axes = sum_to_axes(Shape(g.shape().begin(), g.shape().end()), to);
  A out = axes.empty() ? g : A(xt::sum(g, axes, xt::keep_dims));
  out.reshape(XShape(to.begin(), to.end()));
  return out;
}

XShape broadcast_shape_of(const std::vector<Shape>& shapes) {
  std::size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  XShape out(rank, std::numeric_limits<std::size_t>::max());
  for (const Shape& s : shapes) xt::broadcast_shape(XShape(s.begin(), s.end()), out);
  return out;
}

// A comparison's result as 0 and 1 (a graph node; comparisons have no gradient).
A compare(Op op, const A& a, const A& b) {
  if (op == Op::eq) return xt::equal(a, b);
  if (op == Op::ne) return xt::not_equal(a, b);
  if (op == Op::lt) return a < b;
  if (op == Op::le) return a <= b;
  if (op == Op::gt) return a > b;
  if (op == Op::ge) return a >= b;
  throw std::logic_error(std::string("xtensor_grads.cpp: not a comparison: ") + to_string(op));  // callers ask first
}

// LibTorch's computation dtype of a graph node: result_type of its arguments (a 0-d argument counts only when its
// category is higher; a where's branches only), which each argument is converted to before the op runs.
DType computation_dtype(const ProgramNode& node, const std::vector<DType>& types, const std::vector<Shape>& shapes) {
  std::vector<Operand> operands;
  for (size_t i = node.op == Op::where ? 1 : 0; i < node.args.size(); ++i) {
    const auto a = static_cast<size_t>(node.args[i]);
    operands.push_back({types[a], shapes[a].empty()});
  }
  return result_type(operands);
}

// The dtype of a graph node from its arguments' dtypes (float32, float64 or bool) and ranks: bool for a comparison;
// else the computation dtype. nullopt where an op's own dtype rule would matter (arithmetic on bools alone; a where
// of two bools is bool).
std::optional<DType> node_dtype(const ProgramNode& node, const std::vector<DType>& types,
                                const std::vector<Shape>& shapes) {
  if (is_comparison(node.op)) return DType::bool_;
  const DType t = computation_dtype(node, types, shapes);
  if (t == DType::bool_ && node.op != Op::where) return std::nullopt;
  return t;
}

template <class T>
std::vector<xt::xarray<T>> cast_all(const std::vector<A>& x) {
  std::vector<xt::xarray<T>> out;
  for (const A& a : x) out.push_back(xt::cast<T>(a));
  return out;
}

// An op evaluated as an array of the computation dtype's C++ type (float for float32, as a user's xt::xarray<float>
// would be; double otherwise), from arguments already converted to that dtype (so exact in T); alpha (or value) in
// that type too, as C++ converts an integer scalar (a floating scalar makes the result double: forward_type).
A forward_in(Formula f, const std::vector<A>& x, DType compute, double alpha) {
  if (compute == DType::float32)
    return xt::cast<double>(forward<float>(f, cast_all<float>(x), static_cast<float>(alpha)));
  return forward<double>(f, x, alpha);
}

// The op's formulas in the same type, from its arguments, its result and its upstream gradient.
std::vector<A> grads_in(Formula f, const std::vector<A>& x, const A& r, const A& g, DType compute, double alpha) {
  if (compute != DType::float32) return full_grads<double>(f, x, r, g, alpha);
  std::vector<A> out;
  for (const xt::xarray<float>& share : full_grads<float>(f, cast_all<float>(x), xt::cast<float>(r),
                                                          xt::cast<float>(g), static_cast<float>(alpha)))
    out.push_back(xt::cast<double>(share));
  return out;
}

// A graph node: its op in its computation dtype (comparisons exactly, in double); run_xtensor_graph checks first
// that the op is a comparison or has a formula.
A node_forward(Op op, const std::vector<A>& x, DType compute) {
  if (is_comparison(op)) return compare(op, x[0], x[1]);  // exact in double
  return forward_in(*formula_of(op), x, compute, 1.0);
}
std::vector<A> node_grads(Op op, const std::vector<A>& x, const A& r, const A& g, DType compute) {
  return grads_in(*formula_of(op), x, r, g, compute, 1.0);
}

}  // namespace

Outcome run_xtensor_graph(const Case& c) {
  auto requires_grad = [&](size_t k) { return k < c.requires_grad.size() && c.requires_grad[k]; };
  const std::vector<OperandPlan> plans = plan_operands(c);
  std::vector<DType> types;
  std::vector<A> values;
  std::vector<Shape> shapes;
  std::vector<bool> requires;  // whether autograd would record the value's history
  for (size_t k = 0; k < plans.size(); ++k) {
    const DType t = plans[k].dtype;
    if (t == DType::int64)
      return Outcome::unsupported_because("the xtensor graph oracle computes in double; int64 inputs are not run");
    if (t == DType::bool_ && requires_grad(k))
      return Outcome::unsupported_because("only floating tensors can require grad (an autograd rule)");
    if (is_gradient_case(c) && plans[k].layout == Layout::overlapping)
      return Outcome::unsupported_because("an overlapping operand shares the first operand's storage, so its "
                                          "gradient flows into that base too: a graph matter");
    types.push_back(t);
    shapes.push_back(plans[k].shape);
    values.push_back(array_of(XShape(plans[k].shape.begin(), plans[k].shape.end()),
                              view_values(plans[k], plans[k].base_values).to_doubles()));
    requires.push_back(requires_grad(k));
  }
  const size_t n = values.size();
  std::vector<std::vector<A>> node_args;  // each node's arguments broadcast to its shape, in its computation dtype
  std::vector<DType> node_compute;
  try {
    for (const ProgramNode& node : c.program) {
      if (!is_comparison(node.op) && !formula_of(node.op))
        return Outcome::unsupported_because(std::string("the xtensor graph oracle has no formula for ") +
                                            to_string(node.op));
      const std::optional<DType> type = node_dtype(node, types, shapes);
      if (!type)
        return Outcome::unsupported_because(std::string("the xtensor graph oracle does not run ") + to_string(node.op) +
                                            " on bool operands alone");
      std::vector<Shape> arg_shapes;
      for (int a : node.args) arg_shapes.push_back(shapes[static_cast<size_t>(a)]);
      const XShape shape = broadcast_shape_of(arg_shapes);
      // LibTorch converts each argument to the computation dtype first (a float64 0-d argument of a float32 node
      // is rounded to float32), then runs the op in it.
      const DType compute = computation_dtype(node, types, shapes);
      std::vector<A> x;
      for (int a : node.args) x.push_back(stored(xt::broadcast(values[static_cast<size_t>(a)], shape), compute));
      const A r = node_forward(node.op, x, compute);
      bool rg = false;
      for (size_t i = node.op == Op::where ? 1 : 0; i < node.args.size(); ++i)
        rg = rg || requires[static_cast<size_t>(node.args[i])];
      values.push_back(stored(r, *type));
      types.push_back(*type);
      shapes.push_back(Shape(shape.begin(), shape.end()));
      requires.push_back(rg && !is_comparison(node.op));
      node_args.push_back(std::move(x));
      node_compute.push_back(compute);
    }
    const A& r = values.back();
    const DType type = types.back();
    Outcome o = Outcome::success(shapes.back(), to_string(type));
    o.values = converted(std::vector<double>(r.begin(), r.end()), type);
    if (!is_gradient_case(c)) return o;
    if (!requires.back())
      return Outcome::unsupported_because("the result does not require grad: whether backward is refused is "
                                          "autograd's rule, which xtensor has no notion of");
    // Reverse order: each node's upstream gradient is complete once every later node has given its share.
    std::vector<std::optional<A>> grads(values.size());
    grads.back() = array_of(XShape(r.shape().begin(), r.shape().end()),
                            upstream_values(c, type, static_cast<int64_t>(r.size())).to_doubles());
    for (size_t j = c.program.size(); j-- > 0;) {
      const size_t v = n + j;
      if (!grads[v] || !requires[v]) continue;
      const ProgramNode& node = c.program[j];
      const std::vector<A> full = node_grads(node.op, node_args[j], values[v], *grads[v], node_compute[j]);
      for (size_t i = 0; i < node.args.size(); ++i) {
        const auto a = static_cast<size_t>(node.args[i]);
        if (!requires[a] || (node.op == Op::where && i == 0)) continue;
        const A share = stored(reduce_to(full[i], shapes[a]), types[a]);
        grads[a] = grads[a] ? stored(*grads[a] + share, types[a]) : share;
      }
    }
    for (size_t k = 0; k < n; ++k) {
      if (!requires_grad(k) || !grads[k]) {
        o.grads.push_back(std::nullopt);
        continue;
      }
      const A& gk = *grads[k];
      o.grads.push_back(Grad{shapes[k], to_string(types[k]),
                             converted(std::vector<double>(gk.begin(), gk.end()), types[k])});
    }
    return o;
  } catch (const xt::broadcast_error& e) {
    return Outcome::failure(ErrorKind::broadcast, e.what());
  } catch (const std::exception& e) {
    return Outcome::failure(ErrorKind::other, e.what());
  }
}

Outcome run_xtensor_grads(const Case& c) {
  const OpEntry* op = &entry(c.op);
  if (op->family == Family::matmul || op->family == Family::fused) return run_xtensor_product_grads(c);
  const bool in_place = op->family == Family::inplace;
  const std::optional<Formula> formula = formula_of(c.op);
  if (!formula)
    return Outcome::unsupported_because("the xtensor gradient oracle has formulas for the differentiable ops only, "
                                        "not " + std::string(op->name));
  const Formula f = *formula;
  if (c.modify)
    return Outcome::unsupported_because("writing an operand between forward and backward is judged by autograd's "
                                        "version counters, which xtensor has no notion of");
  auto requires_grad = [&](size_t k) { return k < c.requires_grad.size() && c.requires_grad[k]; };
  if (in_place && requires_grad(0))
    return Outcome::unsupported_because("an in-place op on an input that requires grad is ruled by autograd (leaf "
                                        "checks, the recorded graph), which xtensor has no notion of");
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (requires_grad(k) && category(dtype_of(c, k)) != Category::floating)
      return Outcome::unsupported_because("only floating tensors can require grad (an autograd rule); operand " +
                                          std::to_string(k) + " is " + to_string(dtype_of(c, k)));
  if (f == Formula::where && dtype_of(c, 0) != DType::bool_)
    return Outcome::unsupported_because("xt::where is only run with a bool condition");
  if (f == Formula::lerp && (dtype_of(c, 1) != dtype_of(c, 0) || dtype_of(c, 2) != dtype_of(c, 0)))
    return Outcome::unsupported_because("lerp's operands must share one dtype (LibTorch's check; xtensor has no lerp)");
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    if (plans[k].layout == Layout::overlapping)
      return Outcome::unsupported_because("an overlapping operand shares the first operand's storage, so its "
                                          "gradient flows into that base too: a graph matter");
    if (in_place && k == 0 && plans[k].layout != Layout::contiguous)
      return Outcome::unsupported_because("an in-place op on a non-contiguous self meets LibTorch's overlap rules");
  }
  try {
    const XShape shape = broadcast_shape_of(c.shapes);
    if (in_place && shape != XShape(c.shapes[0].begin(), c.shapes[0].end()))
      return Outcome::unsupported_because("other does not broadcast to self's shape: LibTorch refuses, xtensor's "
                                          "assignment would resize self; not judged on gradients");
    // In place, C++ assignment converts the result to self's element type.
    const std::optional<DType> expression = forward_type(f, c);
    const std::optional<DType> type = in_place ? dtype_of(c, 0) : expression;
    if (!type || category(*type) != Category::floating)
      return Outcome::unsupported_because("xtensor's result type here is not floating, so it has no gradient");
    // The gradient of a transposed, strided or expanded view is that of its values: only those are needed here.
    std::vector<A> x;
    for (const OperandPlan& p : plans)
      x.push_back(xt::broadcast(array_of(XShape(p.shape.begin(), p.shape.end()), view_values(p, p.base_values).to_doubles()), shape));
    const double alpha = scalar_of(c, f == Formula::addcmul || f == Formula::addcdiv ? "value" : "alpha").value;
    // Computed in the expression's C++ type (float for float32), as the value oracle's is, and stored in the result's.
    const DType compute = expression && category(*expression) == Category::floating ? *expression : *type;
    const A r = stored(forward_in(f, x, compute, alpha), *type);
    const XShape out_shape(r.shape().begin(), r.shape().end());  // the broadcast shape, or 0-d for dist
    const A g = array_of(out_shape, upstream_values(c, *type, static_cast<int64_t>(r.size())).to_doubles());
    const std::vector<A> full = grads_in(f, x, r, g, compute, alpha);
    Outcome o = Outcome::success(Shape(out_shape.begin(), out_shape.end()), to_string(*type));
    o.values = std::vector<double>(r.begin(), r.end());  // a floating type (above)
    for (size_t k = 0; k < c.shapes.size(); ++k) {
      if (!requires_grad(k)) {
        o.grads.push_back(std::nullopt);
        continue;
      }
      const A gk = stored(reduce_to(full[k], c.shapes[k]), dtype_of(c, k));
      o.grads.push_back(
          Grad{c.shapes[k], to_string(dtype_of(c, k)), converted(std::vector<double>(gk.begin(), gk.end()), dtype_of(c, k))});
    }
    return o;
  } catch (const xt::broadcast_error& e) {
    return Outcome::failure(ErrorKind::broadcast, e.what());
  } catch (const std::exception& e) {
    return Outcome::failure(ErrorKind::other, e.what());
  }
}

}  // namespace bc
