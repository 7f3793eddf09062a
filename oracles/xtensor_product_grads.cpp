// Gradients of the products and fused products on xtensor: the forward is the xtensor value oracle's (its checks,
// its dtypes, its values); the gradients are the analytic formulas, d(a @ b) = (grad @ b^T, a^T @ grad), written
// with the same broadcasting product as the forward (docs/notes/xtensor-products.md) in double, then summed to each
// input's shape with xt::sum over the axes sum_to reduces (undoing matmul's batch broadcasting) and reshaped.
#include <numeric>

#include <xtensor/xarray.hpp>
#include <xtensor/xbroadcast.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xoperation.hpp>
#include <xtensor/xreducer.hpp>

#include "harness/operands.h"
#include "oracles/xtensor_grads.h"
#include "oracles/xtensor_values.h"

namespace bc {
namespace {

using A = xt::xarray<double>;
using XShape = std::vector<std::size_t>;

XShape xshape(const Shape& s) { return XShape(s.begin(), s.end()); }

A array_of(const Shape& shape, const std::vector<double>& values) {
  A a = A::from_shape(xshape(shape));
  std::copy(values.begin(), values.end(), a.begin());
  return a;
}

// [..., n, k] @ [..., k, m], batch dims broadcast (both of rank 2 or more; sizes already checked by the forward).
A product(const A& a, const A& b) {
  const std::size_t ra = a.dimension(), rb = b.dimension();
  return xt::sum(xt::expand_dims(a, ra) * xt::expand_dims(b, rb - 2), {std::max(ra, rb) - 1});
}

// The last two dims swapped.
A swapped(const A& a) {
  std::vector<std::size_t> axes(a.dimension());
  std::iota(axes.begin(), axes.end(), std::size_t{0});
  std::swap(axes[axes.size() - 1], axes[axes.size() - 2]);
  return xt::transpose(a, axes);
}

// A gradient computed in the broadcast shape, summed to `to` (sum_to's axes, kept, then reshaped to `to`).
A reduced(const A& g, const XShape& to) {
  const std::vector<std::size_t> axes = sum_to_axes(Shape(g.shape().begin(), g.shape().end()), Shape(to.begin(), to.end()));
  A out = axes.empty() ? g : A(xt::sum(g, axes, xt::keep_dims));
  out.reshape(to);
  return out;
}

// The matrices the product multiplies (a 1-D a as a row, a 1-D b as a column; outer: a column times a row), and the
// gradients of a and b given the product's gradient in its own (un-squeezed) shape.
struct Factors {
  A a, b;
};
Factors factors(ProductOp op, const A& a, const A& b) {
  if (op == ProductOp::outer || op == ProductOp::addr) return {xt::expand_dims(a, 1), xt::expand_dims(b, 0)};
  return {a.dimension() == 1 ? A(xt::expand_dims(a, 0)) : a, b.dimension() == 1 ? A(xt::expand_dims(b, 1)) : b};
}

}  // namespace

Outcome run_xtensor_product_grads(const Case& c) {
  auto requires_grad = [&](size_t k) { return k < c.requires_grad.size() && c.requires_grad[k]; };
  const std::optional<ProductOp> product_of = product_op(c.op);
  if (!product_of)
    return Outcome::unsupported_because(std::string("the xtensor product gradients are the products', not ") +
                                        to_string(c.op) + "'s");
  const ProductOp op = *product_of;
  const bool fused = is_fused(op), in_place = is_inplace(c.op);
  if (c.modify || (in_place && requires_grad(0)))
    return Outcome::unsupported_because("an autograd rule (version counters, in place on an input that requires "
                                        "grad), which xtensor has no notion of");
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < plans.size(); ++k)
    if (requires_grad(k) && category(plans[k].dtype) != Category::floating)
      return Outcome::unsupported_because("only floating tensors can require grad (an autograd rule)");
  Case forward_case = c;
  forward_case.requires_grad.clear();
  Outcome o = run_xtensor_values(forward_case);
  if (o.status != Status::ok) return o;
  const DType type = dtype_from_string(o.dtype).value_or(DType::float64);
  if (category(type) != Category::floating)
    return Outcome::unsupported_because("xtensor's result type here is not floating, so it has no gradient");
  try {
    std::vector<A> x;
    for (const OperandPlan& p : plans) x.push_back(array_of(p.shape, view_values(p, p.base_values).to_doubles()));
    const A g = array_of(o.shape, upstream_values(c, type, static_cast<int64_t>(o.values.size())).to_doubles());
    const size_t first = fused ? 1 : 0;  // the product's operands
    const Factors f = factors(op, x[first], x[first + 1]);
    // The product's gradient: the upstream gradient summed to the product's own shape (xtensor may have kept a
    // larger c: xtensor-fused-c-target-one), in matrix form (1-D operands' dims put back), and for addbmm one copy
    // per batch entry.
    const A matrices = product(f.a, f.b);
    XShape pshape(matrices.shape().begin(), matrices.shape().end());
    if (op == ProductOp::addbmm) pshape.erase(pshape.begin());
    const bool vectors = op == ProductOp::outer || op == ProductOp::addr;
    const bool row = !vectors && x[first].dimension() == 1, column = !vectors && x[first + 1].dimension() == 1;
    XShape squeezed = pshape;
    if (column) squeezed.erase(squeezed.end() - 1);
    if (row) squeezed.erase(squeezed.end() - (column ? 1 : 2));
    A gp = reduced(g, squeezed);
    gp.reshape(pshape);
    if (op == ProductOp::addbmm) gp = xt::broadcast(gp, XShape{f.a.shape()[0], pshape[0], pshape[1]});
    const double alpha = fused ? scalar_of(c, "alpha").value : 1.0, beta = scalar_of(c, "beta").value;
    std::vector<A> grads(x.size());
    if (fused) grads[0] = reduced(beta * g, xshape(c.shapes[0]));
    grads[first] = alpha * reduced(product(gp, swapped(f.b)), XShape(f.a.shape().begin(), f.a.shape().end()));
    grads[first + 1] = alpha * reduced(product(swapped(f.a), gp), XShape(f.b.shape().begin(), f.b.shape().end()));
    for (size_t k = 0; k < x.size(); ++k) {
      if (!requires_grad(k)) {
        o.grads.push_back(std::nullopt);
        continue;
      }
      A gk = grads[k];
      gk.reshape(xshape(c.shapes[k]));  // a 1-D operand's added dim goes again
      if (plans[k].dtype == DType::float32)
        for (double& v : gk) v = static_cast<double>(static_cast<float>(v));
      o.grads.push_back(
          Grad{c.shapes[k], to_string(plans[k].dtype), converted(std::vector<double>(gk.begin(), gk.end()), plans[k].dtype)});
    }
    return o;
  } catch (const std::exception& e) {
    return Outcome::failure(ErrorKind::other, e.what());
  }
}

}  // namespace bc
