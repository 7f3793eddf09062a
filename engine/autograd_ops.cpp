#include "engine/autograd_ops.h"

#include <algorithm>
#include <map>

#include "engine/autograd_formula.h"
#include "engine/grad_math.h"
#include "engine/sum_to.h"
#include "engine/overlap.h"

namespace bc::ag {
namespace {

Tensor op(BinaryOp o, const Tensor& a, const Tensor& b) { return must(bc::binary(o, a, b)); }
Tensor mul(const Tensor& a, const Tensor& b) { return op(BinaryOp::mul, a, b); }
Tensor div(const Tensor& a, const Tensor& b) { return op(BinaryOp::div, a, b); }
Tensor choose(const Tensor& c, const Tensor& a, const Tensor& b) { return must(bc::where(c, a, b)); }
Tensor masked_fill_zero(const Tensor& x, const Tensor& mask) { return choose(mask, number(0, x), x); }

// What each formula of a binary op reads, as derivatives.yaml writes it; only what a needed gradient reads is saved.
struct Reads {
  bool self = false, other = false, result = false;
};
Reads reads(BinaryOp o, int input) {
  switch (o) {
    case BinaryOp::mul: return input == 0 ? Reads{false, true, false} : Reads{true, false, false};
    case BinaryOp::div: return input == 0 ? Reads{false, true, false} : Reads{true, true, false};
    case BinaryOp::pow: return input == 0 ? Reads{true, true, false} : Reads{true, true, true};
    case BinaryOp::fmod:
    case BinaryOp::remainder: return input == 0 ? Reads{} : Reads{true, true, false};
    case BinaryOp::atan2:
    case BinaryOp::maximum:
    case BinaryOp::minimum: return {true, true, false};
    default: return {};
  }
}

const char* node_name(BinaryOp o) {
  static const std::map<BinaryOp, const char*> names = {
      {BinaryOp::add, "AddBackward0"},    {BinaryOp::sub, "SubBackward0"},          {BinaryOp::mul, "MulBackward0"},
      {BinaryOp::div, "DivBackward0"},    {BinaryOp::pow, "PowBackward1"},          {BinaryOp::atan2, "Atan2Backward0"},
      {BinaryOp::fmod, "FmodBackward1"},  {BinaryOp::remainder, "RemainderBackward1"},
      {BinaryOp::maximum, "MaximumBackward0"}, {BinaryOp::minimum, "MinimumBackward0"},
      {BinaryOp::eq, "EqBackward1"},      {BinaryOp::ne, "NeBackward1"},            {BinaryOp::lt, "LtBackward1"},
      {BinaryOp::le, "LeBackward1"},      {BinaryOp::gt, "GtBackward1"},            {BinaryOp::ge, "GeBackward1"}};
  return names.at(o);
}

// The gradients of a op b (alpha for add and sub), in the broadcast shape; only those asked for.
Grads binary_formula(BinaryOp o, const Tensor& grad, const Tensor& self, const Tensor& other, const Tensor& result,
                     Scalar alpha, bool need_self, bool need_other) {
  std::optional<Tensor> gs, go;
  switch (o) {
    case BinaryOp::add:
      gs = grad;
      go = maybe_multiply(grad, alpha);
      break;
    case BinaryOp::sub:
      gs = grad;
      go = maybe_multiply(neg(grad), alpha);
      break;
    case BinaryOp::mul:
      if (need_self) gs = mul(grad, other);
      if (need_other) go = mul(grad, self);
      break;
    case BinaryOp::div:
      if (need_self) gs = div(grad, other);
      if (need_other) go = mul(neg(grad), div(div(self, other), other));
      break;
    case BinaryOp::pow: {
      const Tensor zero = number(0, grad);
      if (need_self) {
        const Tensor power = op(BinaryOp::pow, self, op(BinaryOp::sub, other, number(1, other)));
        gs = choose(op(BinaryOp::eq, other, number(0, other)), zero, mul(grad, mul(other, power)));
      }
      if (need_other) {
        const Tensor at_zero = mul(op(BinaryOp::eq, self, number(0, self)), op(BinaryOp::ge, other, number(0, other)));
        go = mul(grad, choose(at_zero, zero, mul(result, log(self))));
      }
      break;
    }
    case BinaryOp::atan2: {
      const Tensor recip = div(number(1, self), op(BinaryOp::add, mul(self, self), mul(other, other)));
      if (need_self) gs = mul(mul(grad, other), recip);
      if (need_other) go = mul(mul(grad, neg(self)), recip);
      break;
    }
    case BinaryOp::fmod:
    case BinaryOp::remainder:
      gs = grad;
      if (need_other)
        go = mul(neg(grad), div_rounded(self, other, o == BinaryOp::fmod ? Rounding::trunc : Rounding::floor));
      break;
    case BinaryOp::maximum:
    case BinaryOp::minimum: {
      // Ties share the gradient equally; the smaller (for maximum) side gets none.
      const Tensor split = choose(op(BinaryOp::eq, self, other), div(grad, number(2, grad)), grad);
      const BinaryOp loses_self = o == BinaryOp::maximum ? BinaryOp::lt : BinaryOp::gt;
      const BinaryOp loses_other = o == BinaryOp::maximum ? BinaryOp::gt : BinaryOp::lt;
      if (need_self) gs = masked_fill_zero(split, op(loses_self, self, other));
      if (need_other) go = masked_fill_zero(split, op(loses_other, self, other));
      break;
    }
    default:  // comparisons: see attach_zeros
      break;
  }
  return {need_self ? gs : std::nullopt, need_other ? go : std::nullopt};
}

// Saves what the needed formulas read. In place, self's old value is saved as a copy and the result is self.
struct SavedSet {
  std::optional<Saved> self, other, result;
  Tensor get(const std::optional<Saved>& s) const { return s ? must(s->unpack()) : Tensor(); }
};

SavedSet save_for(BinaryOp o, const Node& node, const Var& a, const Var& b, bool in_place) {
  SavedSet s;
  Reads need;
  for (int i : {0, 1})
    if (node.wants(static_cast<size_t>(i))) {
      const Reads r = reads(o, i);
      need.self |= r.self;
      need.other |= r.other;
      need.result |= r.result;
    }
  if (need.self) s.self = in_place ? save(copy(a->data)) : save(a);
  if (need.other) s.other = save(b);
  return s;
}


// The backward of a op b: the formula over the saved tensors (and the result, which pow's exponent reads).
void attach_binary(const std::shared_ptr<Node>& node, BinaryOp o, SavedSet saved, const Tensor& result, Scalar alpha) {
  if (reads(o, 1).result && node->wants(1)) saved.result = save_output(result, node->name);
  const bool need_a = node->wants(0), need_b = node->wants(1);
  attach(node, [o, saved, alpha, need_a, need_b](const Tensor& grad) {
    return binary_formula(o, grad, saved.get(saved.self), saved.get(saved.other), saved.get(saved.result), alpha,
                          need_a, need_b);
  });
}

// Comparisons in place record a node whose gradients are zeros of the inputs' shapes.
void attach_zeros(const std::shared_ptr<Node>& node) {
  const std::vector<Shape> shapes = node->input_shapes;
  const std::vector<DType> dtypes = node->input_dtypes;
  attach(node, [shapes, dtypes](const Tensor&) {
    return Grads{Tensor::zeros(shapes[0], dtypes[0]), Tensor::zeros(shapes[1], dtypes[1])};
  });
}

}  // namespace

Result<Var> binary(BinaryOp o, const Var& a, const Var& b, Scalar alpha) {
  Result<Tensor> r = bc::binary(o, a->data, b->data, alpha);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  if (is_comparison(o)) return out;
  std::shared_ptr<Node> node = record(node_name(o), {a, b});
  if (!node) return out;
  attach_binary(node, o, save_for(o, *node, a, b, false), out->data, alpha);
  set_history(out, node);
  return out;
}

Result<Var> binary_(BinaryOp o, const Var& self, const Var& other, Scalar alpha) {
  if (auto e = check_inplace(self, self->requires_grad || other->requires_grad)) return *e;
  std::shared_ptr<Node> node = record(node_name(o), {self, other});
  SavedSet saved = node ? save_for(o, *node, self, other, true) : SavedSet{};
  Result<Tensor> r = bc::binary_(o, self->data, other->data, alpha);
  if (!r.ok()) return r.error();
  if (!node) return self;
  set_history(self, node);
  if (is_comparison(o)) {
    attach_zeros(node);
    return self;
  }
  attach_binary(node, o, saved, self->data, alpha);
  return self;
}

namespace {

// lerp's formulas: start gets grad * (1 - weight), end grad * weight, weight grad * (end - start).
Result<Var> lerp_impl(const Var& start, const Var& end, const Var& weight, bool in_place) {
  if (in_place)
    if (auto e = check_inplace(start, start->requires_grad || end->requires_grad || weight->requires_grad)) return *e;
  std::shared_ptr<Node> node = record("LerpBackward1", {start, end, weight});
  std::optional<Saved> s, e, w;
  if (node && (node->wants(0) || node->wants(1))) w = save(weight);
  if (node && node->wants(2)) {
    s = in_place ? save(copy(start->data)) : save(start);
    e = save(end);
  }
  Result<Tensor> r = in_place ? bc::lerp_(start->data, end->data, weight->data)
                              : bc::lerp(start->data, end->data, weight->data);
  if (!r.ok()) return r.error();
  Var out = in_place ? start : output(r.value());
  if (!node) return out;
  const bool need_s = node->wants(0), need_e = node->wants(1), need_w = node->wants(2);
  attach(node, [s, e, w, need_s, need_e, need_w](const Tensor& grad) {
    Grads g(3);
    if (need_s || need_e) {
      const Tensor weight = must(w->unpack());
      if (need_s) g[0] = mul(grad, op(BinaryOp::sub, number(1, weight), weight));
      if (need_e) g[1] = mul(grad, weight);
    }
    if (need_w) g[2] = mul(grad, op(BinaryOp::sub, must(e->unpack()), must(s->unpack())));
    return g;
  });
  set_history(out, node);
  return out;
}

}  // namespace

Result<Var> lerp(const Var& start, const Var& end, const Var& weight) { return lerp_impl(start, end, weight, false); }
Result<Var> lerp_(const Var& self, const Var& end, const Var& weight) { return lerp_impl(self, end, weight, true); }

Result<Var> where(const Var& cond, const Var& a, const Var& b) {
  Result<Tensor> r = bc::where(cond->data, a->data, b->data);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  std::shared_ptr<Node> node = record("WhereBackward0", {cond, a, b});
  if (!node) return out;
  const Saved c = save(cond);
  const bool need_a = node->wants(1), need_b = node->wants(2);
  attach(node, [c, need_a, need_b](const Tensor& grad) {
    const Tensor condition = must(c.unpack()), zero = number(0, grad);
    Grads g(3);
    if (need_a) g[1] = choose(condition, grad, zero);
    if (need_b) g[2] = choose(condition, zero, grad);
    return g;
  });
  set_history(out, node);
  return out;
}

Result<Var> sum(const Var& t, const std::vector<int64_t>& dims, bool keepdim) {
  const Shape& in = t->data.sizes();
  const int64_t rank = static_cast<int64_t>(in.size()), wrap = std::max<int64_t>(rank, 1);
  std::vector<bool> summed(in.size(), dims.empty());
  for (int64_t d : dims) {
    if (d < -wrap || d >= wrap)
      return Error{ErrorKind::invalid_argument, "Dimension out of range (expected to be in range of [" +
                                                    std::to_string(-wrap) + ", " + std::to_string(wrap - 1) +
                                                    "], but got " + std::to_string(d) + ")"};
    if (rank > 0) summed[static_cast<size_t>(d < 0 ? d + rank : d)] = true;
  }
  Shape kept = in, shape;  // kept: the summed dims as size 1; shape: the result's
  for (size_t d = 0; d < in.size(); ++d) {
    if (summed[d]) kept[d] = 1;
    if (keepdim || !summed[d]) shape.push_back(kept[d]);
  }
  Result<Tensor> reduced = sum_to(t->data, kept);
  if (!reduced.ok()) return reduced.error();
  Var out = output(Tensor::from_values(shape, reduced.value().dtype(), reduced.value().to_doubles()));
  std::shared_ptr<Node> node = record(dims.empty() ? "SumBackward0" : "SumBackward1", {t});
  attach(node, [kept, in](const Tensor& grad) {
    // Back to the kept-dims shape (a reshape: same elements), then stretched over the summed dims (a view).
    const Tensor g = Tensor::from_values(kept, grad.dtype(), grad.to_doubles());
    return Grads{must(g.expand(in))};
  });
  set_history(out, node);
  return out;
}

Result<Var> expand(const Var& t, const Shape& shape) {
  Result<Tensor> r = t->data.expand(shape);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  std::shared_ptr<Node> node = record("ExpandBackward0", {t});
  const Shape in = t->data.sizes();
  attach(node, [in](const Tensor& grad) { return Grads{must(sum_to(grad, in))}; });
  set_history(out, node);
  return out;
}

Result<Var> view_of(const Var& base, const Tensor& view, const std::string& name) {
  if (!view.shares_storage_with(base->data) || !base->data.is_contiguous())
    return Error{ErrorKind::invalid_argument, "view_of: the view must look into the base's contiguous storage"};
  Var out = output(view);
  std::shared_ptr<Node> node = record(name, {base});
  out->view_of_leaf = base->is_leaf() && base->requires_grad;
  const Shape base_shape = base->data.sizes();
  const int64_t base_offset = base->data.offset();
  const View v = view.view();
  attach(node, [base_shape, base_offset, v](const Tensor& grad) {
    std::vector<double> sums(static_cast<size_t>(numel(base_shape)), 0.0);
    const std::vector<int64_t> at = element_offsets(v);
    const std::vector<double> g = grad.to_doubles();
    for (size_t k = 0; k < at.size(); ++k) sums[static_cast<size_t>(at[k] - base_offset)] += g[k];
    return Grads{Tensor::from_values(base_shape, grad.dtype(), sums)};
  });
  set_history(out, node);
  return out;
}

}  // namespace bc::ag
