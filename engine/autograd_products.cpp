#include "engine/autograd_products.h"

#include "engine/autograd_formula.h"
#include "engine/autograd_ops.h"
#include "engine/broadcast.h"
#include "engine/elementwise.h"
#include "engine/error_texts.h"
#include "engine/grad_math.h"

namespace bc::ag {
namespace {

Tensor prod(ProductOp op, const Tensor& a, const Tensor& b) { return must(bc::product(op, a, b)); }
Tensor swapped(const Tensor& t, int64_t d0, int64_t d1) { return must(t.transpose(d0, d1)); }
Tensor t2d(const Tensor& t) { return swapped(t, 0, 1); }
Tensor t12(const Tensor& t) { return swapped(t, 1, 2); }

const char* node_name(ProductOp op) {
  switch (op) {
    case ProductOp::mm: return "MmBackward0";
    case ProductOp::bmm: return "BmmBackward0";
    case ProductOp::mv: return "MvBackward0";
    case ProductOp::dot: return "DotBackward0";
    case ProductOp::addmm: return "AddmmBackward0";
    case ProductOp::addmv: return "AddmvBackward0";
    case ProductOp::addr: return "AddrBackward0";
    case ProductOp::baddbmm: return "BaddbmmBackward0";
    case ProductOp::addbmm: return "AddbmmBackward0";
    case ProductOp::matmul: case ProductOp::outer: break;  // composites: their parts record the nodes
  }
  return "";
}

// The gradients of the product p = a @ b (for addbmm: summed over the batch), given p's gradient: derivatives.yaml's
// formulas for mm, bmm, mv, dot, addr's outer product and addbmm's batch sum, each multiplied by alpha.
std::pair<std::optional<Tensor>, std::optional<Tensor>> product_grads(ProductOp op, const Tensor& grad,
                                                                      const Tensor& a, const Tensor& b, bool need_a,
                                                                      bool need_b, Scalar alpha) {
  std::optional<Tensor> ga, gb;
  switch (op) {
    case ProductOp::mm:
    case ProductOp::addmm:
      if (need_a) ga = prod(ProductOp::mm, grad, t2d(b));
      if (need_b) gb = prod(ProductOp::mm, t2d(a), grad);
      break;
    case ProductOp::bmm:
    case ProductOp::baddbmm:
      if (need_a) ga = prod(ProductOp::bmm, grad, t12(b));
      if (need_b) gb = prod(ProductOp::bmm, t12(a), grad);
      break;
    case ProductOp::addbmm: {
      if (!need_a && !need_b) break;
      // grad.unsqueeze(0).expand({batch, n, p}): one copy of the summed product's gradient per batch entry.
      // Only the operand the other's gradient reads is saved; either one knows the batch count.
      const int64_t batch = a.dim() == 3 ? a.sizes()[0] : b.sizes()[0];
      const Shape& g = grad.sizes();
      const Tensor g3 = must(must(grad.reshape({1, g[0], g[1]})).expand({batch, g[0], g[1]}));
      if (need_a) ga = prod(ProductOp::bmm, g3, t12(b));
      if (need_b) gb = prod(ProductOp::bmm, t12(a), g3);
      break;
    }
    case ProductOp::mv:
    case ProductOp::addmv:
      if (need_a) ga = prod(ProductOp::outer, grad, b);
      if (need_b) gb = prod(ProductOp::mv, t2d(a), grad);
      break;
    case ProductOp::addr:
      if (need_a) ga = prod(ProductOp::mv, grad, b);
      if (need_b) gb = prod(ProductOp::mv, t2d(grad), a);
      break;
    case ProductOp::dot:
      if (need_a) ga = must(bc::binary(Op::mul, grad, b));
      if (need_b) gb = must(bc::binary(Op::mul, grad, a));
      break;
    case ProductOp::matmul: case ProductOp::outer:  // composites: their parts carry the gradients
      break;
  }
  if (ga) ga = maybe_multiply(*ga, alpha);
  if (gb) gb = maybe_multiply(*gb, alpha);
  return {ga, gb};
}

// Saves what the needed gradients read: a's gradient reads b, b's reads a.
struct ProductSaves {
  std::optional<Saved> a, b;
};
ProductSaves save_operands(const Node& node, size_t first, const Var& a, const Var& b) {
  ProductSaves s;
  if (node.wants(first + 1)) s.a = save(a);
  if (node.wants(first)) s.b = save(b);
  return s;
}
Tensor get(const std::optional<Saved>& s) { return s ? must(s->unpack()) : Tensor(); }

Result<Var> primitive(ProductOp op, const Var& a, const Var& b) {
  Result<Tensor> r = bc::product(op, a->data, b->data);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  std::shared_ptr<Node> node = record(node_name(op), {a, b});
  if (!node) return out;
  const ProductSaves saved = save_operands(*node, 0, a, b);
  const bool need_a = node->wants(0), need_b = node->wants(1);
  attach(node, [op, saved, need_a, need_b](const Tensor& grad) {
    auto [ga, gb] = product_grads(op, grad, get(saved.a), get(saved.b), need_a, need_b, Scalar{});
    return Grads{ga, gb};
  });
  set_history(out, node);
  return out;
}

// outer is LibTorch's composite self.reshape({n, 1}) * vec2 (after its own rank checks).
Result<Var> outer(const Var& a, const Var& b) {
  if (a->data.dim() != 1 || b->data.dim() != 1) return bc::product(ProductOp::outer, a->data, b->data).error();
  Result<Var> column = reshape(a, {a->data.sizes()[0], 1});
  if (!column.ok()) return column;
  return binary(Op::mul, column.value(), b);
}

// at::matmul's should_fold: a tensor of 3+ dims times a vector or matrix is folded into one mm/mv, except a 3-D
// tensor whose last two dims are transposed behind a slowest first dim (LibTorch then prefers bmm).
bool should_fold(const Tensor& t, int64_t other_dim) {
  if (t.dim() < 3 || (other_dim != 1 && other_dim != 2)) return false;
  const Shape &s = t.sizes(), &st = t.strides();
  return !(t.dim() == 3 && other_dim == 2 && st.back() != 1 && st.front() == s[1] * s[2]);
}

// Chains of var ops whose intermediate results cannot fail once the composite's checks passed.
Var ok(Result<Var> r) {
  if (!r.ok()) throw FormulaError{r.error()};
  return r.value();
}

Result<Var> matmul(const Var& a, const Var& b) {
  const int64_t d1 = a->data.dim(), d2 = b->data.dim();
  if (d1 == 0 || d2 == 0)
    return make_error(ErrorText::matmul_zero_dim, {d1, d2});
  try {
    if (d1 == 1 && d2 == 1) return primitive(ProductOp::dot, a, b);
    if (d1 == 2 && d2 == 1) return primitive(ProductOp::mv, a, b);
    if (d1 == 1 && d2 == 2) {  // a.unsqueeze(0).mm(b).squeeze_(0)
      const Var row = ok(reshape(a, {1, a->data.sizes()[0]}));
      Result<Var> r = primitive(ProductOp::mm, row, b);
      if (!r.ok()) return r;
      return reshape(r.value(), {b->data.sizes()[1]});
    }
    if (d1 == 2 && d2 == 2) return primitive(ProductOp::mm, a, b);
    if (should_fold(a->data, d2) || should_fold(b->data, d1)) {
      // The batched operand folded into the rows of one matrix; when it is b, work on the transposes.
      const bool flip = d2 > d1;
      const Var t1 = flip ? ok(transpose(b, d2 - 2, d2 - 1)) : a;
      const Var t2 = !flip ? b : d1 == 2 ? ok(transpose(a, 0, 1)) : a;
      const Shape& s1 = t1->data.sizes();
      Shape out(s1.begin(), s1.end() - 1);
      const int64_t rows = numel(out);
      const bool matrix = t2->data.dim() == 2;
      if (matrix) out.push_back(t2->data.sizes()[1]);
      const Var folded = ok(reshape(t1, {rows, s1.back()}));
      Result<Var> r = primitive(matrix ? ProductOp::mm : ProductOp::mv, folded, t2);
      if (!r.ok()) return r;
      const Var shaped = ok(reshape(r.value(), out));
      return flip && matrix ? transpose(shaped, static_cast<int64_t>(out.size()) - 2, static_cast<int64_t>(out.size()) - 1)
                            : shaped;
    }
    // Both batched (or a batch LibTorch chose not to fold): broadcast the batch dims, then one bmm.
    const Shape &sa = a->data.sizes(), &sb = b->data.sizes();
    const int64_t n = d1 > 1 ? sa[sa.size() - 2] : 1, m1 = sa.back();
    const int64_t m2 = d2 > 1 ? sb[sb.size() - 2] : sb[0], p = d2 > 1 ? sb.back() : 1;
    const Result<Shape> batch = broadcast_shapes(Shape(sa.begin(), sa.end() - std::min<int64_t>(d1, 2)),
                                                 Shape(sb.begin(), sb.end() - std::min<int64_t>(d2, 2)));
    if (!batch.ok()) return batch.error();
    const int64_t count = numel(batch.value());
    auto with = [&](std::initializer_list<int64_t> tail) {
      Shape s = batch.value();
      s.insert(s.end(), tail);
      return s;
    };
    const Var t1 = ok(reshape(ok(expand(a, with({n, m1}))), {count, n, m1}));
    const Var t2 = d2 == 1 ? ok(reshape(ok(expand(b, with({m2}))), {count, m2, 1}))
                           : ok(reshape(ok(expand(b, with({m2, p}))), {count, m2, p}));
    Shape out = batch.value();
    if (d1 > 1) out.push_back(n);
    if (d2 > 1) out.push_back(p);
    Result<Var> r = primitive(ProductOp::bmm, t1, t2);
    if (!r.ok()) return r;
    return reshape(r.value(), out);
  } catch (const FormulaError& e) {
    return e.error;
  }
}

Result<Var> fused_impl(ProductOp op, const Var& c, const Var& a, const Var& b, Scalar beta, Scalar alpha,
                       bool in_place) {
  if (in_place)
    if (auto e = check_inplace(c, c->requires_grad || a->requires_grad || b->requires_grad)) return *e;
  std::shared_ptr<Node> node = record(node_name(op), {c, a, b});
  const ProductSaves saved = node ? save_operands(*node, 1, a, b) : ProductSaves{};
  Result<Tensor> r = in_place ? bc::fused_(op, c->data, a->data, b->data, beta, alpha)
                              : bc::fused(op, c->data, a->data, b->data, beta, alpha);
  if (!r.ok()) return r.error();
  Var out = in_place ? c : output(r.value());
  if (!node) return out;
  const bool need_c = node->wants(0), need_a = node->wants(1), need_b = node->wants(2);
  attach(node, [op, saved, beta, alpha, need_c, need_a, need_b](const Tensor& grad) {
    auto [ga, gb] = product_grads(op, grad, get(saved.a), get(saved.b), need_a, need_b, alpha);
    return Grads{need_c ? std::optional<Tensor>(maybe_multiply(grad, beta)) : std::nullopt, ga, gb};
  });
  set_history(out, node);
  return out;
}

}  // namespace

Result<Var> reshape(const Var& t, const Shape& shape) {
  Result<Tensor> r = t->data.reshape(shape);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  std::shared_ptr<Node> node = record("ViewBackward0", {t});
  const Shape in = t->data.sizes();
  attach(node, [in](const Tensor& grad) { return Grads{must(grad.reshape(in))}; });
  set_history(out, node);
  return out;
}

Result<Var> transpose(const Var& t, int64_t d0, int64_t d1) {
  Result<Tensor> r = t->data.transpose(d0, d1);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  std::shared_ptr<Node> node = record("TransposeBackward0", {t});
  attach(node, [d0, d1](const Tensor& grad) { return Grads{swapped(grad, d0, d1)}; });
  set_history(out, node);
  return out;
}

Result<Var> product(ProductOp op, const Var& a, const Var& b) {
  if (op == ProductOp::matmul) return matmul(a, b);
  if (op == ProductOp::outer) return outer(a, b);
  return primitive(op, a, b);
}

Result<Var> fused(ProductOp op, const Var& c, const Var& a, const Var& b, Scalar beta, Scalar alpha) {
  return fused_impl(op, c, a, b, beta, alpha, false);
}

Result<Var> fused_(ProductOp op, const Var& c, const Var& a, const Var& b, Scalar beta, Scalar alpha) {
  return fused_impl(op, c, a, b, beta, alpha, true);
}

}  // namespace bc::ag
