#include "engine/autograd_ops.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/autograd_formula.h"
#include "engine/error_texts.h"
#include "engine/fill.h"
#include "engine/half_precision.h"
#include "engine/grad_math.h"
#include "engine/sum_to.h"
#include "engine/overlap.h"

namespace bc::ag {
namespace {

const BinaryRule& rule_of(Op o) { return *binary_rule(o); }

// Saves what the needed formulas read. In place, self's old value is saved as a copy and the result is self.
struct SavedSet {
  std::optional<Saved> self, other, result;
  Tensor get(const std::optional<Saved>& s) const { return s ? must(s->unpack()) : Tensor(); }
};

SavedSet save_for(Op o, const Node& node, const Var& a, const Var& b, bool in_place) {
  SavedSet s;
  Reads need;
  for (int i : {0, 1})
    if (node.wants(static_cast<size_t>(i))) {
      const Reads r = i == 0 ? rule_of(o).reads_for_self : rule_of(o).reads_for_other;
      need.self |= r.self;
      need.other |= r.other;
      need.result |= r.result;
    }
  if (need.self) s.self = in_place ? save(copy(a->data)) : save(a);
  if (need.other) s.other = save(b);
  return s;
}


// The backward of a op b: the rule's formula over the saved tensors (and the result, where the rule's `reads` say
// its formula reads it).
void attach_binary(const std::shared_ptr<Node>& node, Op o, SavedSet saved, const Tensor& result, Scalar alpha,
                   bool in_place) {
  if (!rule_of(o).backward) {  // LibTorch's NotImplemented node: its message names the op as called
    const std::string name = std::string("aten::") + to_string(out_of_place(o)) + (in_place ? "_" : "");
    attach(node, [name](const Tensor&) -> Grads {
      throw ag::FormulaError{make_error(ErrorText::derivative_not_implemented, {name})};
    });
    return;
  }
  if ((rule_of(o).reads_for_self.result && node->wants(0)) || (rule_of(o).reads_for_other.result && node->wants(1)))
    saved.result = save_output(result, node->name);
  const bool need_a = node->wants(0), need_b = node->wants(1);
  const auto backward = rule_of(o).backward;
  attach(node, [backward, saved, alpha, need_a, need_b](const Tensor& grad) {
    const Tensor self = saved.get(saved.self), other = saved.get(saved.other), result = saved.get(saved.result);
    const BinaryGrads g = backward({grad, self, other, result, alpha, need_a, need_b});
    return Grads{need_a ? g.self : std::nullopt, need_b ? g.other : std::nullopt};
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

Result<Var> binary(Op o, const Var& a, const Var& b, Scalar alpha) {
  Result<Tensor> r = bc::binary(o, a->data, b->data, alpha);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  if (is_comparison(o) || !rule_of(o).node) return out;
  std::shared_ptr<Node> node = record(rule_of(o).node, {a, b});
  if (!node) return out;
  attach_binary(node, o, save_for(o, *node, a, b, false), out->data, alpha, false);
  set_history(out, node);
  return out;
}

Result<Var> binary_(Op o, const Var& self, const Var& other, Scalar alpha) {
  if (!rule_of(o).node) {  // LibTorch records no node (engine/op_table.h); self keeps its history
    if (!is_comparison(o))  // the bitwise ops and shifts refuse a leaf; the logical ops do not check
      if (auto e = check_inplace(self, self->requires_grad || other->requires_grad)) return *e;
    Result<Tensor> r = bc::binary_(o, self->data, other->data, alpha);
    if (!r.ok()) return r.error();
    return self;
  }
  if (auto e = check_inplace(self, self->requires_grad || other->requires_grad)) return *e;
  std::shared_ptr<Node> node = record(rule_of(o).node, {self, other});
  SavedSet saved = node ? save_for(o, *node, self, other, true) : SavedSet{};
  Result<Tensor> r = bc::binary_(o, self->data, other->data, alpha);
  if (!r.ok()) return r.error();
  if (!node) return self;
  set_history(self, node);
  if (is_comparison(o)) {
    attach_zeros(node);
    return self;
  }
  attach_binary(node, o, saved, self->data, alpha, true);
  return self;
}

Result<Var> unary(Op o, const Var& t) {
  Result<Tensor> r = bc::unary(o, t->data);
  if (!r.ok()) return r.error();
  Var out = output(r.value());
  const UnaryRule& rule = *unary_rule(o);
  std::shared_ptr<Node> node = record(rule.node, {t});
  if (!node) return out;
  std::optional<Saved> self, result;
  if (rule.reads.self) self = save(t);
  if (rule.reads.result) result = save_output(out->data, node->name);
  const auto backward = rule.backward;
  attach(node, [backward, self, result](const Tensor& grad) {
    const Tensor s = self ? must(self->unpack()) : Tensor(), res = result ? must(result->unpack()) : Tensor();
    return Grads{backward({grad, s, res})};
  });
  set_history(out, node);
  return out;
}

Result<Var> fill_(Op o, const Var& self, Scalar value) {
  if (auto e = check_inplace(self, self->requires_grad)) return *e;
  const FillRule& rule = *fill_rule(o);
  std::shared_ptr<Node> node = record(rule.node, {self});
  Result<Tensor> r = bc::fill_(o, self->data, value);
  if (!r.ok()) return r.error();
  if (!node) return self;
  const auto backward = rule.backward;
  attach(node, [backward](const Tensor& grad) { return Grads{backward(grad)}; });
  set_history(self, node);
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
      if (need_s) g[0] = mul(grad, apply(Op::sub, number(1, weight), weight));
      if (need_e) g[1] = mul(grad, weight);
    }
    if (need_w) g[2] = mul(grad, apply(Op::sub, must(e->unpack()), must(s->unpack())));
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
      return make_error(ErrorText::dim_out_of_range, {-wrap, wrap - 1, d});
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

Result<Var> dist(const Var& a, const Var& b) {
  Result<Tensor> diff = bc::binary(Op::sub, a->data, b->data);
  if (!diff.ok()) return diff.error();
  const Tensor& d = diff.value();
  if (category(d.dtype()) != Category::floating)
    return make_error(ErrorText::norm_dtype, {torch_name(d.dtype())});
  double squares = 0;
  if (d.dtype() == DType::float16) {
    // LibTorch 1.13's norm squares and sums float16 in float16, in order (probed: 300 squared overflows to inf;
    // 3000 ones sum to 2048, where float16 stops counting).
    for (double x : d.to_doubles()) squares = round_to_float16(squares + round_to_float16(x * x));
  } else if (d.dtype() == DType::float64) {
    for (double x : d.to_doubles()) squares += x * x;
  } else {
    // float32 and bfloat16: LibTorch 1.13's vectorized CPU norm squares and sums in float (a difference of 2^64
    // squares to inf); its lanes' order of additions is not followed (it moves the result within tolerance only).
    float sum = 0;
    for (double x : d.to_doubles()) sum += static_cast<float>(x) * static_cast<float>(x);
    squares = sum;
  }
  Var out = output(Tensor::from_values({}, d.dtype(), {std::sqrt(squares)}));
  std::shared_ptr<Node> node = record("DistBackward0", {a, b});
  if (!node) return out;
  // Saved as LibTorch saves them (self, other, result), so that an input written in place before backward is caught.
  const Saved self = save(a), other = save(b), result = save_output(out->data, node->name);
  const bool need_a = node->wants(0), need_b = node->wants(1);
  attach(node, [self, other, result, need_a, need_b](const Tensor& grad) {
    // norm_backward for p = 2: (self - other) * (grad / result), zero where the norm is zero.
    const Tensor r = must(result.unpack());
    const Tensor scale = choose(apply(Op::eq, r, number(0, r)), number(0, r), div(grad, r));
    const Tensor g = mul(apply(Op::sub, must(self.unpack()), must(other.unpack())), scale);
    return Grads{need_a ? std::optional<Tensor>(g) : std::nullopt,
                 need_b ? std::optional<Tensor>(neg(g)) : std::nullopt};
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
    return make_error(ErrorText::view_of_storage);
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
