#include "properties/shape_gen.h"

#include <algorithm>

#include "harness/operand_views.h"
#include "harness/operands.h"
#include "properties/exec.h"
#include "properties/fill_gen.h"
#include "properties/op_choice.h"
#include "properties/out_gen.h"
#include "properties/shape_set.h"
#include "properties/value_class_gen.h"
#include "properties/weighted.h"
#include "properties/zero_scalar.h"

namespace bc::gen {

Case make_case(Op op, std::vector<Shape> shapes, std::vector<std::string> tags) {
  Case c;
  c.op = op;
  c.shapes = std::move(shapes);
  c.tags = std::move(tags);
  return c;
}

int64_t conflicting_size(int64_t other) { return *weighted(conflict_weights(other)); }

Weighted<int64_t> size() { return weighted(size_weights()); }

rc::Gen<Shape> shape(int min_rank, int max_rank) {
  return rc::gen::map(shape_set(0, min_rank, max_rank, false), [](const ShapeSet& s) { return s.full; });
}

rc::Gen<Shape> operand_of(const Shape& full) {
  return bc::gen::exec([full] {
    const int r = *rc::gen::inRange<int>(0, static_cast<int>(full.size()) + 1);
    Shape s(full.end() - r, full.end());
    for (int64_t& d : s)
      if (*weighted<bool>({{1, false}, {3, true}})) d = 1;  // shrinks towards 1 (false = set to 1)
    return s;
  });
}

rc::Gen<std::vector<Shape>> broadcastable(int count, int max_rank) {
  return rc::gen::map(shape_set(count, 0, max_rank, false), [](const ShapeSet& s) { return s.shapes(); });
}

rc::Gen<std::vector<Shape>> near_miss(int count, int max_rank) {
  return rc::gen::map(shape_set(count, 1, max_rank, true), [](const ShapeSet& s) { return s.shapes(); });
}

namespace {

bool binary_out_of_place(const OpEntry& e) { return e.binary && !e.base; }
bool binary_with_inplace(const OpEntry& e) { return binary_out_of_place(e) && e.inplace; }

}  // namespace

rc::Gen<Case> elementwise_case() {
  return bc::gen::exec([] {
    const Op op = (*op_from_table(&Weights::shapes, binary_out_of_place))->op;
    if (*weighted<bool>({{3, false}, {1, true}})) return make_case(op, *near_miss(2), {"near miss"});
    return make_case(op, *broadcastable(2), {"broadcastable"});
  });
}

rc::Gen<Case> inplace_case() {
  return bc::gen::exec([] {
    const Op op = *(*op_from_table(&Weights::shapes, binary_with_inplace))->inplace;
    const int branch = *weighted<int>({{3, 0}, {2, 1}, {1, 2}});
    if (branch == 2) return make_case(op, *near_miss(2), {"near miss"});
    const Shape full = *shape();
    if (branch == 0) return make_case(op, {full, *operand_of(full)}, {"self is the broadcast shape"});
    return make_case(op, {*operand_of(full), full}, {"self narrower than other"});
  });
}

rc::Gen<Case> broadcast_shapes_case() {
  return bc::gen::exec([] {
    const int count = *weighted<int>({{1, 0}, {6, 1}, {8, 2}, {8, 3}});
    if (count >= 2 && *weighted<bool>({{3, false}, {1, true}}))
      return make_case(Op::broadcast_shapes, *near_miss(count), {"near miss"});
    std::vector<Shape> shapes = count == 0 ? std::vector<Shape>{} : *broadcastable(count);
    // A near miss of another kind: one size negative (-1, or below), which sizes given outright can hold.
    if (count >= 1 && *weighted<bool>({{12, false}, {1, true}})) {
      Shape& victim = shapes[index_below(count)];
      if (victim.empty()) victim.push_back(1);
      victim[index_below(static_cast<int>(victim.size()))] = *weighted<int64_t>({{3, -1}, {1, -2}});
      return make_case(Op::broadcast_shapes, shapes, {"negative size"});
    }
    return make_case(Op::broadcast_shapes, shapes, {"broadcastable"});
  });
}

rc::Gen<Case> expand_case() {
  return bc::gen::exec([] {
    const int branch = *weighted<int>({{5, 0}, {2, 1}, {1, 2}, {1, 3}, {1, 4}});
    if (branch == 0) {  // valid: source broadcasts to target; some kept dims written as -1
      const Shape target = *shape();
      Shape source = *operand_of(target), written = target;
      const size_t pad = target.size() - source.size();
      for (size_t d = 0; d < source.size(); ++d)
        if (source[d] == target[pad + d] && *weighted<bool>({{4, false}, {1, true}})) written[pad + d] = -1;
      return make_case(Op::expand, {source, written}, {"valid target"});
    }
    if (branch == 1) {  // near miss: one existing dim asked to become a size it cannot stretch to
      Shape source = *shape(1, 5);
      const int p = index_below(static_cast<int>(source.size()));
      Shape target = *operand_of(source);
      target.insert(target.begin(), source.begin(), source.end() - target.size());  // same rank, 1s kept
      for (size_t d = 0; d < source.size(); ++d)
        if (source[d] == 1 && *weighted<bool>({{2, false}, {1, true}})) target[d] = *size();
      // The offending target size: another size, or 1 (a non-1 dim cannot shrink to 1 either).
      if (source[p] == 1) source[p] = *weighted<int64_t>({{3, 2}, {3, 3}, {2, 0}});  // a 1 would stretch
      target[p] = *weighted<bool>({{3, false}, {1, true}}) ? 1 : conflicting_size(source[p]);
      const int lead = index_below(2);
      for (int i = 0; i < lead; ++i) target.insert(target.begin(), *size());
      return make_case(Op::expand, {source, target}, {"near miss"});
    }
    if (branch == 2) {  // target of lower rank than the source
      const Shape source = *shape(1, 6);
      const int keep = index_below(static_cast<int>(source.size()));
      return make_case(Op::expand, {source, Shape(source.end() - keep, source.end())}, {"target rank below source"});
    }
    const Shape source = *shape(0, 5);
    Shape target = source;
    if (branch == 4) {  // a negative size other than -1 anywhere in the target (-1 alone keeps a size)
      target.insert(target.begin(), index_below(2), *size());
      if (target.empty()) target.push_back(1);
      target[index_below(static_cast<int>(target.size()))] = *weighted<int64_t>({{3, -2}, {1, -3}});
      return make_case(Op::expand, {source, target}, {"negative size"});
    }
    target.insert(target.begin(), -1);  // -1 in a new leading dim
    return make_case(Op::expand, {source, target}, {"-1 in a new leading dim"});
  });
}

rc::Gen<Case> sum_to_case() {
  return bc::gen::exec([] {
    const int branch = *weighted<int>({{4, 0}, {2, 1}, {1, 2}});
    if (branch == 0) {  // valid: the target expands to the source
      const Shape from = *shape();
      return make_case(Op::sum_to, {from, *operand_of(from)}, {"valid target"});
    }
    if (branch == 1) {  // the target has, at one aligned dim, a non-1 size the source does not have
      const Shape from = *shape(1, 6);
      Shape to = *operand_of(from);
      if (to.empty()) to = {from.back()};
      const int p = index_below(static_cast<int>(to.size()));
      to[p] = conflicting_size(from[from.size() - to.size() + p]);
      return make_case(Op::sum_to, {from, to}, {"target does not expand to source"});
    }
    const Shape from = *shape(0, 5);  // more dims in the target than in the source
    Shape to = *operand_of(from);
    to.insert(to.begin(), from.begin(), from.end() - to.size());
    to.insert(to.begin(), *size());
    return make_case(Op::sum_to, {from, to}, {"target rank above source"});
  });
}

Shape matmul_operand(int form, const Shape& batch, int64_t outer, int64_t inner, bool left) {
  if (form == 1) return {inner};
  Shape s = form == 3 ? batch : Shape{};
  if (left) {
    s.push_back(outer);
    s.push_back(inner);
  } else {
    s.push_back(inner);
    s.push_back(outer);
  }
  return s;
}

rc::Gen<Case> matmul_case() {
  return bc::gen::exec([] {
    const int branch = *weighted<int>({{5, 0}, {2, 1}, {2, 2}, {1, 3}});
    if (branch == 3) {  // a 0-D operand
      const Shape other = *shape(0, 3);
      const bool left = *weighted<bool>({{1, false}, {1, true}});
      return make_case(Op::matmul, left ? std::vector<Shape>{{}, other} : std::vector<Shape>{other, {}}, {"0-D operand"});
    }
    // forms: 1 = vector, 2 = matrix, 3 = batched
    // A batch conflict needs both operands batched; otherwise any mix of vector, matrix and batched.
    const auto form = branch == 2 ? weighted<int>({{1, 3}}) : weighted<int>({{3, 2}, {1, 1}, {3, 3}});
    const int fa = *form, fb = *form;
    const std::vector<Shape> batches = branch == 2 ? *near_miss(2, 3) : *broadcastable(2, 3);
    const int64_t n = *size(), k = *size(), m = *size();
    const int64_t k2 = branch == 1 ? conflicting_size(k) : k;
    const char* tag = branch == 0 ? "valid" : branch == 1 ? "inner dims differ" : "batch dims conflict";
    return make_case(Op::matmul, {matmul_operand(fa, batches[0], n, k, true), matmul_operand(fb, batches[1], m, k2, false)},
                     {tag});
  });
}

rc::Gen<Case> algebra_case() {
  return bc::gen::exec([] {
    if (*weighted<bool>({{3, false}, {1, true}})) return make_case(Op::broadcast_shapes, {*shape(), *shape(), *shape()}, {"arbitrary"});
    return make_case(Op::broadcast_shapes, *broadcastable(3), {"broadcastable"});
  });
}

void tag_dtypes_and_layouts(Case& c) {
  for (DType t : c.dtypes) c.tags.push_back(std::string("dtype ") + to_string(t));
  for (const OperandPlan& p : plan_views(c)) c.tags.push_back(std::string("layout ") + to_string(p.layout));
  std::sort(c.tags.begin(), c.tags.end());
  c.tags.erase(std::unique(c.tags.begin(), c.tags.end()), c.tags.end());
}

namespace {

// The pointwise ops (unary ones too, and dist) that value and gradient cases draw; in-place forms where PyTorch
// has them.
bool pointwise(const OpEntry& e) {
  return !e.base && in_family(e, {Family::elementwise, Family::reduction, Family::autograd});
}

// Operand dtypes by the op's rule: where's condition is bool; lerp shares one dtype.
void pick_dtypes(Case& c, DTypeRule rule, int arity, const Weighted<DType>& any, const rc::Gen<DType>& shared) {
  if (rule == DTypeRule::one_dtype) {
    c.dtypes.assign(static_cast<size_t>(arity), *shared);
    return;
  }
  for (int k = 0; k < arity; ++k) c.dtypes.push_back(k == 0 && rule == DTypeRule::bool_condition ? DType::bool_ : *any);
}

// A floating dtype: mostly float32, float64 next, and the 16-bit formats.
Weighted<DType> floating_dtype() {
  return weighted<DType>({{4, DType::float32}, {2, DType::float64}, {1, DType::float16}, {1, DType::bfloat16}});
}

bool reads_scalar(const OpEntry& e, const std::string& name) {
  for (const char* s : e.scalars)
    if (name == s) return true;
  return false;
}

}  // namespace

rc::Gen<Case> value_case() {
  return bc::gen::exec([] {
    // One case in eight writes one value into self in place: fill_ and zero_ (properties/fill_gen.h).
    if (*weighted<bool>({{7, false}, {1, true}})) return *fill_case();
    // Three cases in four sweep the op x dtype cells (harness/coverage.h): the dtypes drawn uniformly, and the op
    // in inverse proportion to the dtypes it draws (one for a unary op or lerp's shared one, two for where's a and
    // b), so that every op meets every dtype about equally often, the ops weighed least (comparisons) included.
    const bool sweep = *weighted<bool>({{1, false}, {3, true}});
    std::vector<std::pair<uint64_t, const OpEntry*>> uniform = ops_weighted(&Weights::values, pointwise);
    for (auto& [w, e] : uniform) {
      const int drawn = e->dtype_rule == DTypeRule::one_dtype ? 1
                        : e->dtype_rule == DTypeRule::bool_condition ? e->arity - 1 : e->arity;
      w = static_cast<uint64_t>(6 / drawn);
    }
    const OpEntry& entry = sweep ? **weighted(uniform) : **op_from_table(&Weights::values, pointwise);
    const bool inplace = entry.inplace && *weighted<bool>({{1, false}, {1, true}});
    const Op op = inplace ? *entry.inplace : entry.op;
    const int arity = entry.arity;
    std::vector<Shape> shapes;
    std::vector<std::string> tags = {inplace ? "in-place" : "out-of-place"};
    if (arity > 1 && *weighted<bool>({{6, false}, {1, true}})) {  // one operand cannot miss
      shapes = *near_miss(arity, 4);
      tags.push_back("near miss");
    } else if (inplace && *weighted<bool>({{4, true}, {1, false}})) {
      const Shape full = *shape(0, 4);
      shapes.push_back(full);
      for (int k = 1; k < arity; ++k) shapes.push_back(*operand_of(full));
    } else {
      shapes = *broadcastable(arity, 4);
    }
    Case c = make_case(op, shapes, tags);
    std::vector<std::pair<uint64_t, DType>> dtype_weights = {
        {4, DType::float32}, {3, DType::int64}, {2, DType::float64}, {2, DType::bool_},   {2, DType::int8},
        {2, DType::uint8},   {2, DType::int16}, {2, DType::int32},   {2, DType::float16}, {2, DType::bfloat16}};
    if (sweep)
      for (auto& [w, t] : dtype_weights) w = 1;
    const auto any_dtype = weighted<DType>(dtype_weights);
    // lerp needs one floating dtype for all three; where's condition is bool.
    const auto float_dtype = floating_dtype();
    const auto shared = bc::gen::exec(
        [any_dtype, float_dtype, sweep] {
          return sweep || *weighted<bool>({{6, false}, {1, true}}) ? *any_dtype : *float_dtype;
        });
    pick_dtypes(c, entry.dtype_rule, arity, any_dtype, shared);
    // Outside the sweep, one case in two gives every operand (where's condition aside) the first one's dtype, as
    // most code does; then one in three of the two-operand ones takes the small shapes fixed-size containers are
    // written for (xtensor's xtensor_fixed path, harness/implementations.h: Role::variant, compiles only those).
    if (!sweep && arity > 1 && *weighted<bool>({{1, false}, {1, true}})) {
      const size_t first = entry.dtype_rule == DTypeRule::bool_condition ? 1 : 0;
      for (size_t k = first + 1; k < c.dtypes.size(); ++k) c.dtypes[k] = c.dtypes[first];
      c.tags.push_back("one dtype");
      const bool missed = std::find(c.tags.begin(), c.tags.end(), "near miss") != c.tags.end();
      if (arity == 2 && !missed && *weighted<bool>({{2, false}, {1, true}})) {
        const auto small = rc::gen::element(Shape{}, Shape{1}, Shape{2}, Shape{3}, Shape{2, 3});
        c.shapes = {*small, *small};
        c.tags.push_back("small fixed shapes");
      }
    }
    // A near miss of where's condition: int64 or floating, which LibTorch 1.13 refuses (a uint8 one it takes with
    // a deprecation warning) and NumPy and xtensor test for truth.
    if (entry.dtype_rule == DTypeRule::bool_condition && *weighted<bool>({{3, false}, {1, true}})) {
      c.dtypes[0] = *weighted<DType>({{2, DType::int64}, {1, DType::float32}, {1, DType::float64}});
      c.tags.push_back("non-bool condition");
    }
    const auto layout = weighted<Layout>({{6, Layout::contiguous}, {2, Layout::transposed}, {2, Layout::strided},
                                          {1, Layout::expanded}, {1, Layout::overlapping}});
    for (int k = 0; k < arity; ++k) {
      Layout l = *layout;
      if (k == 0 && l == Layout::overlapping) l = Layout::contiguous;  // only inputs view the first operand
      c.layouts.push_back(l);
    }
    if (reads_scalar(entry, "alpha") && *weighted<bool>({{2, false}, {1, true}}))
      c.scalars["alpha"] = scalar_with_zeros({{6, 2.0}, {2, -1.0}, {2, 0.5}, {2, 2.5}});
    if (reads_scalar(entry, "value") && *weighted<bool>({{1, false}, {1, true}}))
      c.scalars["value"] = scalar_with_zeros({{6, 2.0}, {2, -1.0}, {4, 0.5}});
    ValueSpec v;
    v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    v.special = draw_special(c, 4);
    c.values = v;
    if (v.special) c.tags.push_back("special values");
    tag_zero_scalar(c);
    maybe_out(c, 6);
    // A value class, drawn last so that the rest of the case is drawn as before.
    draw_value_class(c, 8);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

rc::Gen<Case> grad_case(int max_rank, bool value_classes) {
  return bc::gen::exec([max_rank, value_classes] {
    const OpEntry& entry = **op_from_table(&Weights::grads, pointwise);
    const bool inplace = entry.inplace && *weighted<bool>({{3, false}, {1, true}});
    const Op op = inplace ? *entry.inplace : entry.op;
    const int arity = entry.arity;
    std::vector<Shape> shapes;
    if (inplace) {
      const Shape full = *shape(0, max_rank);
      shapes.push_back(full);
      for (int k = 1; k < arity; ++k) shapes.push_back(*operand_of(full));
    } else {
      shapes = *broadcastable(arity, max_rank);
    }
    Case c = make_case(op, shapes, {inplace ? "in-place" : "out-of-place"});
    // Floating operands (one dtype for lerp); sometimes an integer operand that does not require grad (LibTorch
    // refuses requires_grad on integers).
    const auto float_dtype = floating_dtype();
    pick_dtypes(c, entry.dtype_rule, arity, float_dtype, float_dtype.generator());
    // LibTorch 1.13 computes pow's forward in float16 but not its backward (log_vml_cpu has no Half kernel), which
    // the engine's autograd does not state: pow's gradients are drawn in the other floating dtypes.
    if (entry.op == Op::pow)
      for (DType& t : c.dtypes)
        if (t == DType::float16) t = DType::bfloat16;
    // Which operands require grad: any floating one except in-place self (that is autograd_inplace's business).
    std::vector<size_t> candidates;
    for (int k = 0; k < arity; ++k)
      if (category(c.dtypes[static_cast<size_t>(k)]) == Category::floating && !(inplace && k == 0))
        candidates.push_back(static_cast<size_t>(k));
    c.requires_grad.assign(static_cast<size_t>(arity), false);
    for (size_t k : candidates) c.requires_grad[k] = *weighted<bool>({{3, true}, {1, false}});
    const size_t sure = candidates[static_cast<size_t>(index_below(static_cast<int>(candidates.size())))];
    c.requires_grad[sure] = true;
    if (entry.dtype_rule == DTypeRule::independent && *weighted<bool>({{6, false}, {1, true}})) {
      for (size_t k = 0; k < c.dtypes.size(); ++k)
        if (!c.requires_grad[k] && !(inplace && k == 0)) {
          c.dtypes[k] = *weighted<DType>({{3, DType::int64}, {1, DType::int8}, {1, DType::uint8}, {1, DType::int16},
                                           {1, DType::int32}});
          c.tags.push_back("integer operand");
          break;
        }
    }
    const auto layout = weighted<Layout>({{5, Layout::contiguous}, {2, Layout::transposed}, {2, Layout::strided},
                                          {1, Layout::expanded}});
    for (int k = 0; k < arity; ++k) c.layouts.push_back(*layout);
    if (reads_scalar(entry, "alpha") && *weighted<bool>({{2, false}, {1, true}}))
      c.scalars["alpha"] = scalar_with_zeros({{6, 2.0}, {2, -1.0}, {2, 0.5}});
    if (reads_scalar(entry, "value") && *weighted<bool>({{1, false}, {1, true}}))
      c.scalars["value"] = scalar_with_zeros({{6, 2.0}, {2, -1.0}, {2, 0.5}});
    ValueSpec v;
    v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    v.special = draw_special(c, 8);
    c.values = v;
    tag_zero_scalar(c);
    if (*weighted<bool>({{1, false}, {1, true}})) c.grad_seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    c.tags.push_back(c.grad_seed ? "upstream seeded" : "upstream ones");
    if (v.special) c.tags.push_back("special values");
    if (entry.op == Op::diamond) c.tags.push_back("diamond");
    if (value_classes) draw_value_class(c, 8);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

rc::Gen<Case> autograd_inplace_case() {
  return bc::gen::exec([] {
    const int branch = *weighted<int>({{1, 0}, {1, 1}});
    if (branch == 0) {  // in place on a leaf that requires grad, or on a view of one
      const OpEntry& entry = **op_from_table(&Weights::leaf_inplace);
      const Op op = entry.op;
      const int arity = entry.arity;
      const Shape full = *shape(0, 4);
      std::vector<Shape> shapes{full};
      for (int k = 1; k < arity; ++k) shapes.push_back(*operand_of(full));
      Case c = make_case(op, shapes, {});
      c.dtypes.assign(static_cast<size_t>(arity), DType::float32);
      c.requires_grad.assign(static_cast<size_t>(arity), false);
      c.requires_grad[0] = true;
      for (int k = 1; k < arity; ++k) c.requires_grad[static_cast<size_t>(k)] = *weighted<bool>({{1, false}, {1, true}});
      c.layouts.push_back(*weighted<Layout>({{2, Layout::contiguous}, {1, Layout::transposed}, {1, Layout::strided}}));
      c.layouts.resize(static_cast<size_t>(arity), Layout::contiguous);
      c.values = ValueSpec{*rc::gen::inRange<uint64_t>(0, 1000000), false, {}, std::nullopt};
      c.tags.push_back(plan_views(c)[0].layout == Layout::contiguous ? "leaf self" : "view of a leaf self");
      tag_dtypes_and_layouts(c);
      return c;
    }
    // Written in place between forward and backward: an input the op saved (or did not) for its gradient.
    const OpEntry& entry = **op_from_table(&Weights::modify, pointwise);
    const Op op = entry.op;
    const int arity = entry.arity;
    Case c = make_case(op, *broadcastable(arity, 4), {});
    c.dtypes.assign(static_cast<size_t>(arity), *weighted<DType>({{2, DType::float32}, {1, DType::float64}}));
    const int modified = index_below(arity);
    c.requires_grad.assign(static_cast<size_t>(arity), false);
    for (int k = 0; k < arity; ++k)
      if (k != modified) c.requires_grad[static_cast<size_t>(k)] = *weighted<bool>({{3, true}, {1, false}});
    c.requires_grad[static_cast<size_t>(modified == 0 ? 1 : 0)] = true;
    const bool modify_leaf = *weighted<bool>({{5, false}, {1, true}});
    if (modify_leaf) c.requires_grad[static_cast<size_t>(modified)] = true;
    c.modify = modified;
    const auto layout = weighted<Layout>({{3, Layout::contiguous}, {1, Layout::transposed}, {1, Layout::expanded}});
    for (int k = 0; k < arity; ++k) c.layouts.push_back(*layout);
    c.values = ValueSpec{*rc::gen::inRange<uint64_t>(0, 1000000), false, {}, std::nullopt};
    c.tags.push_back(modify_leaf ? "modify a leaf that requires grad" : "modify an input");
    tag_dtypes_and_layouts(c);
    return c;
  });
}

}  // namespace bc::gen
