#include "properties/product_gen.h"

#include <cmath>
#include <stdexcept>

#include "properties/exec.h"
#include "properties/shape_gen.h"
#include "properties/op_choice.h"
#include "properties/value_class_gen.h"
#include "properties/weighted.h"
#include "properties/zero_scalar.h"

namespace bc::gen {
namespace {

// Operand shapes for a strict product (mm, bmm, mv, dot, outer): in its domain, or one near miss.
std::vector<Shape> strict_product_shapes(Op op, int branch, std::vector<std::string>& tags) {
  const int64_t n = *size(), k = *size(), m = *size(), b = *size();
  int64_t k2 = k, b2 = b;
  if (branch == 1 && op != Op::outer) {
    k2 = conflicting_size(k);
    tags.push_back("inner dims differ");
  } else if (branch == 1) {
    branch = 3;  // outer has no inner dim: its near miss is a rank
  }
  if (branch == 2 && op == Op::bmm) {
    b2 = *weighted<bool>({{1, false}, {1, true}}) ? 1 : conflicting_size(b);
    if (b2 == b) b2 = conflicting_size(b);
    tags.push_back("batch dims conflict");
  } else if (branch == 2) {
    branch = 3;
  }
  std::vector<Shape> shapes;
  if (op == Op::mm) shapes = {{n, k}, {k2, m}};
  else if (op == Op::bmm) shapes = {{b, n, k}, {b2, k2, m}};
  else if (op == Op::mv) shapes = {{n, k}, {k2}};
  else if (op == Op::dot) shapes = {{k}, {k2}};
  else if (op == Op::outer) shapes = {{n}, {m}};
  else throw std::logic_error(std::string("properties/product_gen.cpp: no operand shapes for ") + to_string(op));
  if (branch == 3) {  // one operand one dim too many or too few
    Shape& s = shapes[static_cast<size_t>(index_below(2))];
    if (s.size() > 1 && *weighted<bool>({{1, false}, {1, true}})) s.erase(s.begin());
    else s.insert(s.begin(), *size());
    tags.push_back("rank outside the op's domain");
  }
  return shapes;
}

// Operand shapes for matmul: vectors, matrices and batches (branch 0), inner dims differ (1), batch dims
// conflict (2), a 0-D operand (3).
std::vector<Shape> matmul_shapes(int branch, std::vector<std::string>& tags) {
  if (branch == 3) {
    const Shape other = *shape(0, 3);
    tags.push_back("rank outside the op's domain");
    return *weighted<bool>({{1, false}, {1, true}}) ? std::vector<Shape>{{}, other} : std::vector<Shape>{other, {}};
  }
  const auto form = branch == 2 ? weighted<int>({{1, 3}}) : weighted<int>({{3, 2}, {1, 1}, {3, 3}});
  const int fa = *form, fb = *form;
  const std::vector<Shape> batches = branch == 2 ? *near_miss(2, 3) : *broadcastable(2, 3);
  const int64_t n = *size(), k = *size(), m = *size();
  const int64_t k2 = branch == 1 ? conflicting_size(k) : k;
  if (branch == 1) tags.push_back("inner dims differ");
  if (branch == 2) tags.push_back("batch dims conflict");
  if (fa == 3 || fb == 3) tags.push_back("batched");
  return {matmul_operand(fa, batches[0], n, k, true), matmul_operand(fb, batches[1], m, k2, false)};
}

// The products' floating dtypes: float16 mostly to meet LibTorch's refusals (no Half kernel on CPU), bfloat16
// computed; their integer dtypes, int64 mostly.
Weighted<DType> product_floating() {
  return weighted<DType>({{6, DType::float32}, {2, DType::float64}, {1, DType::float16}, {1, DType::bfloat16}});
}
Weighted<DType> product_integer() {
  return weighted<DType>({{4, DType::int64}, {1, DType::int8}, {1, DType::uint8}, {1, DType::int16}, {1, DType::int32}});
}

// One floating dtype for all operands most of the time; sometimes one integer dtype throughout, sometimes a mix.
std::vector<DType> product_dtypes(size_t count, std::vector<std::string>& tags) {
  const int branch = *weighted<int>({{8, 0}, {1, 1}, {1, 2}});
  if (branch == 0) return std::vector<DType>(count, *product_floating());
  if (branch == 1) return std::vector<DType>(count, *product_integer());
  tags.push_back("mixed dtypes");
  std::vector<DType> out;
  const auto any = weighted<DType>({{3, DType::float32}, {2, DType::float64}, {2, DType::int64}, {1, DType::bool_},
                                    {1, DType::bfloat16}, {1, DType::int32}});
  for (size_t k = 0; k < count; ++k) out.push_back(*any);
  return out;
}

std::vector<Layout> layouts(size_t count) {
  const auto layout = weighted<Layout>({{5, Layout::contiguous}, {2, Layout::transposed}, {2, Layout::strided},
                                        {1, Layout::expanded}});
  std::vector<Layout> out;
  for (size_t k = 0; k < count; ++k) out.push_back(*layout);
  return out;
}

// Values, and for floating cases (self excluded when in place) sometimes gradients of a non-empty set of inputs.
void add_values_and_grads(Case& c, bool inplace, uint64_t grad_weight) {
  ValueSpec v;
  v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
  v.special = draw_special(c, 7);
  if (v.special) c.tags.push_back("special values");
  c.values = v;
  tag_zero_scalar(c);
  std::vector<size_t> candidates;
  // No float16 gradients: LibTorch 1.13 refuses the products' backward kernels on Half (addr's backward calls
  // addmv_impl_cpu), which the engine's autograd does not state.
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (category(c.dtypes[k]) == Category::floating && c.dtypes[k] != DType::float16 && !(inplace && k == 0))
      candidates.push_back(k);
  if (candidates.empty() || !*weighted<bool>({{3 - grad_weight, false}, {grad_weight, true}})) return;
  c.requires_grad.assign(c.shapes.size(), false);
  for (size_t k : candidates) c.requires_grad[k] = *weighted<bool>({{1, true}, {1, false}});
  c.requires_grad[candidates[static_cast<size_t>(index_below(static_cast<int>(candidates.size())))]] = true;
  if (*weighted<bool>({{1, false}, {1, true}})) c.grad_seed = *rc::gen::inRange<uint64_t>(0, 1000000);
  c.tags.push_back("gradient");
}

// A scalar argument: the integer 1 (absent), or one of `choices`, written as an int when it is whole (sometimes
// as a float even then: LibTorch tells 2 from 2.0).
void maybe_scalar(Case& c, const std::string& name, std::vector<std::pair<uint64_t, double>> choices) {
  choices.insert(choices.begin(), std::make_pair(uint64_t{3}, 1.0));
  const double x = *weighted(choices);
  if (x == 1.0) return;
  const bool whole = x == std::floor(x) && !std::signbit(x);  // -0.0 stays a float
  c.scalars[name] = Scalar{x, whole && *weighted<bool>({{3, true}, {1, false}})};
  c.tags.push_back(name + (x == 0 ? " 0" : whole ? " integral" : " fractional"));
}

}  // namespace

rc::Gen<Case> product_case() {
  return bc::gen::exec([] {
    const Op op = (*op_from_table(&Weights::values, [](const OpEntry& e) { return e.family == Family::matmul; }))->op;
    const int branch = *weighted<int>({{12, 0}, {2, 1}, {2, 2}, {1, 3}});
    std::vector<std::string> tags = {branch == 0 ? "valid" : "near miss"};
    std::vector<Shape> shapes = op == Op::matmul ? matmul_shapes(branch, tags) : strict_product_shapes(op, branch, tags);
    for (const Shape& s : shapes)
      if (s.size() == 1) tags.push_back("1-D operand");
    Case c = make_case(op, shapes, tags);
    c.dtypes = product_dtypes(2, c.tags);
    c.layouts = layouts(2);
    add_values_and_grads(c, false, 1);
    draw_value_class(c, 8);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

namespace {

// The product's operands (a, b) and its result shape, for an out-of-place fused op.
std::pair<std::vector<Shape>, Shape> fused_product(Op op, bool near, std::vector<std::string>& tags) {
  const int64_t n = *size(), k = *size(), m = *size(), b = *size();
  const int64_t k2 = near ? conflicting_size(k) : k;
  if (near) tags.push_back("inner dims differ");
  if (op == Op::addmm) return {{{n, k}, {k2, m}}, {n, m}};
  if (op == Op::addmv) return {{{n, k}, {k2}}, {n}};
  if (op == Op::addr) return {{{n}, {m}}, {n, m}};
  if (op == Op::baddbmm) return {{{b, n, k}, {b, k2, m}}, {b, n, m}};
  if (op == Op::addbmm) return {{{b, n, k}, {b, k2, m}}, {n, m}};  // summed over the batch
  throw std::logic_error(std::string("properties/product_gen.cpp: no operand shapes for ") + to_string(op));
}

}  // namespace

rc::Gen<Case> fused_case() {
  return bc::gen::exec([] {
    const OpEntry& base =
        **op_from_table(&Weights::values, [](const OpEntry& e) { return e.family == Family::fused && !e.base; });
    const bool inplace = *weighted<bool>({{2, false}, {1, true}});
    std::vector<std::string> tags = {inplace ? "in-place" : "out-of-place"};
    const bool near = base.op != Op::addr && *weighted<bool>({{9, false}, {1, true}});
    auto [operands, result] = fused_product(base.op, near, tags);
    // c: the product's shape, a shape that broadcasts to it, or one that conflicts with it.
    const int branch = *weighted<int>({{3, 0}, {3, 1}, {1, 2}});
    Shape c_shape = result;
    if (branch == 1) c_shape = *operand_of(result);
    if (branch == 2 && !result.empty()) {
      const size_t d = static_cast<size_t>(index_below(static_cast<int>(result.size())));
      c_shape[d] = conflicting_size(result[d]);
    }
    tags.push_back(c_shape == result ? "c is the product's shape" : branch == 2 ? "c conflicts" : "c broadcasts");
    std::vector<Shape> shapes = {c_shape, operands[0], operands[1]};
    Case c = make_case(inplace ? *base.inplace : base.op, shapes, tags);
    c.dtypes = product_dtypes(3, c.tags);
    c.layouts = layouts(3);
    maybe_scalar(c, "beta", {{2, 0.0}, {1, -0.0}, {2, 2.0}, {2, -1.0}, {2, 0.5}});
    maybe_scalar(c, "alpha", {{1, 0.0}, {2, 2.0}, {2, -1.0}, {2, 0.5}});
    add_values_and_grads(c, inplace, inplace ? 0 : 1);
    draw_value_class(c, 8);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

rc::Gen<Case> addc_case() {
  return bc::gen::exec([] {
    // The fused pointwise ops that have an unfused twin in the table.
    const OpEntry& base = **op_from_table(&Weights::values, [](const OpEntry& e) {
      const std::optional<Op> twin = unfused_form(e.op);
      return twin && entry(*twin).family == Family::unfused;
    });
    const bool inplace = *weighted<bool>({{2, false}, {1, true}});
    std::vector<Shape> shapes;
    std::vector<std::string> tags = {inplace ? "in-place" : "out-of-place"};
    if (inplace && *weighted<bool>({{3, true}, {1, false}})) {
      const Shape full = *shape(0, 4);
      shapes = {full, *operand_of(full), *operand_of(full)};
    } else {
      shapes = *broadcastable(3, 4);
    }
    Case c = make_case(inplace ? *base.inplace : base.op, shapes, tags);
    const int dtypes = *weighted<int>({{6, 0}, {2, 1}, {1, 2}});
    if (dtypes == 0) c.dtypes.assign(3, *product_floating());
    if (dtypes == 1) c.dtypes.assign(3, *product_integer());
    if (dtypes == 2) {
      const auto any = weighted<DType>({{3, DType::float32}, {2, DType::float64}, {2, DType::int64}, {1, DType::bool_}});
      for (int k = 0; k < 3; ++k) c.dtypes.push_back(*any);
      c.tags.push_back("mixed dtypes");
    }
    c.layouts = layouts(3);
    maybe_scalar(c, "value", {{2, 2.0}, {1, -1.0}, {2, 0.5}, {1, 0.0}});
    add_values_and_grads(c, inplace, 2);
    draw_value_class(c, 8);
    tag_dtypes_and_layouts(c);
    return c;
  });
}

}  // namespace bc::gen
