#include "oracles/xtensor_grads.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xstrides.hpp>

#include "harness/operands.h"
#include "oracles/xtensor_formulas.h"

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

// A graph node: its op in its computation dtype (comparisons exactly, in double); run_xtensor_graph checks first
// that the op is a comparison or has a formula.
A node_forward(Op op, const std::vector<A>& x, DType compute) {
  if (is_comparison(op)) return xtv::comparison(op, x[0], x[1]);  // exact in double
  return xtv::formula_forward(op, x, compute, 1.0);
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
      if (!is_comparison(node.op) && !xtv::has_formula(node.op))
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
      const std::vector<A> full = xtv::formula_grads(node.op, node_args[j], values[v], *grads[v], node_compute[j], 1.0);
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
  if (!xtv::has_formula(c.op))
    return Outcome::unsupported_because("the xtensor gradient oracle has formulas for the differentiable ops only, "
                                        "not " + std::string(op->name));
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
  if (op->dtype_rule == DTypeRule::bool_condition && dtype_of(c, 0) != DType::bool_)
    return Outcome::unsupported_because("xt::where is only run with a bool condition");
  if (op->dtype_rule == DTypeRule::one_dtype && (dtype_of(c, 1) != dtype_of(c, 0) || dtype_of(c, 2) != dtype_of(c, 0)))
    return Outcome::unsupported_because(std::string(op->name) + "'s operands must share one dtype (LibTorch's check; "
                                        "xtensor has no " + op->name + ")");
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
    const std::optional<DType> expression = xtv::formula_type(c.op, c);
    const std::optional<DType> type = in_place ? dtype_of(c, 0) : expression;
    if (!type || category(*type) != Category::floating)
      return Outcome::unsupported_because("xtensor's result type here is not floating, so it has no gradient");
    // The gradient of a transposed, strided or expanded view is that of its values: only those are needed here.
    std::vector<A> x;
    for (const OperandPlan& p : plans)
      x.push_back(xt::broadcast(array_of(XShape(p.shape.begin(), p.shape.end()), view_values(p, p.base_values).to_doubles()), shape));
    const double alpha = scalar_of(c, takes_scalar(c.op, "value") ? "value" : "alpha").value;
    // Computed in the expression's C++ type (float for float32), as the value oracle's is, and stored in the result's.
    const DType compute = expression && category(*expression) == Category::floating ? *expression : *type;
    const A r = stored(xtv::formula_forward(c.op, x, compute, alpha), *type);
    const XShape out_shape(r.shape().begin(), r.shape().end());  // the broadcast shape, or 0-d for dist
    const A g = array_of(out_shape, upstream_values(c, *type, static_cast<int64_t>(r.size())).to_doubles());
    const std::vector<A> full = xtv::formula_grads(c.op, x, r, g, compute, alpha);
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
