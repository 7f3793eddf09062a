#include "engine/autograd_addcmul.h"

#include "engine/autograd_formula.h"
#include "engine/elementwise.h"
#include "engine/grad_math.h"

namespace bc::ag {
namespace {

Result<Var> addc_impl(AddcOp op, const Var& c, const Var& a, const Var& b, Scalar value, bool in_place) {
  if (in_place)
    if (auto e = check_inplace(c, c->requires_grad || a->requires_grad || b->requires_grad)) return *e;
  std::shared_ptr<Node> node = record(op == AddcOp::addcmul ? "AddcmulBackward0" : "AddcdivBackward0", {c, a, b});
  const bool need_a = node && node->wants(1), need_b = node && node->wants(2);
  // a's gradient reads b; b's reads a (and, for addcdiv, b). LibTorch's generated code saves an input only when a
  // wanted gradient reads it if one formula reads it; addcdiv's b is read by two, so it is saved whenever the node
  // is recorded (docs/notes/gradient-cases.md, "What is saved").
  std::optional<Saved> sa, sb;
  if (need_b) sa = save(a);
  if (need_a || (node && op == AddcOp::addcdiv)) sb = save(b);
  Result<Tensor> r = in_place ? bc::addc_(op, c->data, a->data, b->data, value)
                              : bc::addc(op, c->data, a->data, b->data, value);
  if (!r.ok()) return r.error();
  Var out = in_place ? c : output(r.value());
  if (!node) return out;
  const bool need_c = node->wants(0);
  attach(node, [op, sa, sb, value, need_c, need_a, need_b](const Tensor& grad) {
    // Every saved tensor is unpacked (and its version checked) before any formula runs, as LibTorch's apply() does.
    const Tensor t1 = sa ? must(sa->unpack()) : Tensor(), t2 = sb ? must(sb->unpack()) : Tensor();
    Grads g(3);
    if (need_c) g[0] = grad;
    if (op == AddcOp::addcmul) {
      if (need_a) g[1] = mul(grad, mul(t2, wrapped(value, t2)));
      if (need_b) g[2] = mul(grad, mul(t1, wrapped(value, t1)));
    } else {
      if (need_a) g[1] = mul(grad, div(wrapped(value, t2), t2));
      if (need_b) g[2] = mul(neg(grad), div(mul(wrapped(value, t1), t1), mul(t2, t2)));
    }
    return g;
  });
  set_history(out, node);
  return out;
}

}  // namespace

Result<Var> addc(AddcOp op, const Var& c, const Var& a, const Var& b, Scalar value) {
  return addc_impl(op, c, a, b, value, false);
}

Result<Var> addc_(AddcOp op, const Var& c, const Var& a, const Var& b, Scalar value) {
  return addc_impl(op, c, a, b, value, true);
}

}  // namespace bc::ag
