#include "harness/case_conditions.h"

#include "harness/number_conditions.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "engine/broadcast.h"
#include "harness/operand_views.h"
#include "harness/operands.h"
#include "harness/value_conditions.h"
#include "harness/values.h"

namespace bc {
namespace {

// The storage offset of each element of a view of `sizes` with `strides` from `offset`, in row-major order.
std::vector<int64_t> offsets(int64_t offset, const Shape& sizes, const Shape& strides) {
  std::vector<int64_t> out;
  const int64_t count = numel(sizes);
  if (count <= 0) return out;
  Shape index(sizes.size(), 0);
  for (int64_t e = 0; e < count; ++e) {
    int64_t at = offset;
    for (size_t d = 0; d < sizes.size(); ++d) at += index[d] * strides[d];
    out.push_back(at);
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace

bool input_is_self(const Case& c) {
  if (c.shapes.size() < 2) return false;
  const std::vector<OperandPlan> plans = plan_views(c);
  const OperandPlan& self = plans[0];
  if (self.views_operand >= 0 || numel(self.shape) == 0) return false;
  const std::vector<int64_t> mine = offsets(self.offset, self.shape, self.strides);
  for (size_t k = 1; k < plans.size(); ++k) {
    const OperandPlan& p = plans[k];
    if (p.views_operand != 0 || p.shape.size() > self.shape.size()) continue;
    // Broadcast to self's shape: right-aligned, a missing or size-1 dim repeats (stride 0).
    Shape strides(self.shape.size(), 0);
    bool fits = true;
    const size_t lead = self.shape.size() - p.shape.size();
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d] == self.shape[lead + d]) strides[lead + d] = p.shape[d] == 1 ? 0 : p.strides[d];
      else if (p.shape[d] != 1) fits = false;
    }
    // (On a dim of size 1 the index is always 0, so neither side's stride there moves anything.)
    if (fits && mine == offsets(p.offset, self.shape, strides)) return true;
  }
  return false;
}

bool self_shares_memory(const Case& c) {
  if (c.shapes.empty()) return false;
  const std::vector<OperandPlan> plans = plan_views(c);
  const OperandPlan& self = plans[0];
  std::vector<int64_t> mine = offsets(self.offset, self.shape, self.strides);
  std::sort(mine.begin(), mine.end());
  if (std::adjacent_find(mine.begin(), mine.end()) != mine.end()) return true;  // self's own elements overlap
  for (size_t k = 1; k < plans.size(); ++k) {
    const OperandPlan& p = plans[k];
    if (p.views_operand != 0) continue;
    for (int64_t at : offsets(p.offset, p.shape, p.strides))
      if (std::binary_search(mine.begin(), mine.end(), at)) return true;
  }
  return false;
}

bool column_major_matrices(const Case& c) {
  if (c.shapes.size() < 2 || c.shapes[0].size() != 2) return false;
  const std::vector<OperandPlan> plans = plan_views(c);
  const OperandPlan& self = plans[0];
  if (self.shape[0] < 2 || self.shape[1] < 2 || self.strides != Shape{1, self.shape[0]}) return false;
  for (size_t k = 1; k < plans.size(); ++k)
    if (plans[k].shape == self.shape && plans[k].strides == self.strides) return true;
  return false;
}

bool graph_uses(const Case& c, std::initializer_list<Op> ops) {
  for (const ProgramNode& node : c.program)
    if (std::find(ops.begin(), ops.end(), node.op) != ops.end()) return true;
  return false;
}

bool integral_reduction(const Case& c) {
  const bool reduction = c.op == Op::sum || c.op == Op::mean || c.op == Op::amax || c.op == Op::amin || c.op == Op::prod;
  if (!reduction || c.shapes.empty()) return false;
  const DType type = c.dtype_arg.value_or(c.dtypes.empty() ? DType::float32 : c.dtypes[0]);
  return category(type) != Category::floating;
}

bool out_shape_differs(const Case& c) {
  if (!c.out) return false;
  const Result<Shape> result = broadcast_shapes(c.shapes);
  return result.ok() && result.value() != c.out->shape;
}

bool prod_order_decides_zero(const Case& c) {
  if (c.op != Op::prod || c.shapes.empty()) return false;
  const std::vector<OperandPlan> plans = plan_operands(c);
  const DType type = c.dtype_arg.value_or(plans[0].dtype);
  if (category(type) != Category::floating) return false;  // integers wrap the same in any order
  const Values seen = converted(view_values(plans[0], plans[0].base_values), type);
  bool zero = false;
  double log2_large = 0;
  for (size_t k = 0; k < seen.size(); ++k) {
    const double x = std::fabs(seen.as_double(k));
    if (!std::isfinite(x)) return false;  // an inf or NaN gives inf or NaN in every order
    if (x == 0) zero = true;
    if (x > 1) log2_large += std::log2(x);
  }
  return zero && log2_large >= max_exponent(type);
}

bool shift_count_outside_width(const Case& c) {
  const Op base = out_of_place(c.op);
  if ((base != Op::bitwise_left_shift && base != Op::bitwise_right_shift) || c.shapes.size() != 2) return false;
  const std::vector<OperandPlan> plans = plan_operands(c);
  std::vector<Operand> operands;
  for (const OperandPlan& p : plans) operands.push_back({p.dtype, p.shape.empty(), p.number.has_value()});
  const DType type = result_type(operands);
  const int bits = integer_bits(type);
  if (bits == 0) return false;  // bool or floating: no shift at all
  const Values counts = converted(seen_values(plans, 1), type);  // an overlapping count views operand 0's base
  for (size_t k = 0; k < counts.size(); ++k) {
    const int64_t n = counts.ints()[k];
    if (n < 0 || n >= bits) return true;
  }
  return false;
}

// "where_bool_branches": a where (or where_) whose two branches are both bool (its condition always is).
bool where_bool_branches(const Case& c) {
  return out_of_place(c.op) == Op::where && c.shapes.size() == 3 && dtype_of(c, 1) == DType::bool_ &&
         dtype_of(c, 2) == DType::bool_;
}

namespace {

// Whether `seen` holds an integer beyond 2^bits in magnitude: one a floating dtype with that many significand bits
// cannot hold exactly.
bool beyond_exact(const Values& seen, int bits) {
  const int64_t exact = int64_t{1} << bits;
  for (size_t k = 0; k < seen.size(); ++k) {
    const int64_t x = seen.integers() ? seen.ints()[k] : static_cast<int64_t>(seen.as_double(k));
    if (x > exact || x < -exact) return true;
  }
  return false;
}

}  // namespace

bool sum_order_rounds(const Case& c) {
  if ((c.op != Op::sum && c.op != Op::mean) || c.shapes.empty() || !c.dtype_arg) return false;
  const std::vector<OperandPlan> plans = plan_operands(c);
  // Integers in a floating dtype= beyond 2^significand_bits are not all exact; integers wrap the same in any order.
  if (category(plans[0].dtype) == Category::floating || category(*c.dtype_arg) != Category::floating) return false;
  return beyond_exact(seen_values(plans, 0), significand_bits(*c.dtype_arg));
}

bool grad_sum_rounds(const Case& c) {
  if (!c.values || c.shapes.empty() || std::find(c.requires_grad.begin(), c.requires_grad.end(), true) == c.requires_grad.end())
    return false;
  const std::vector<OperandPlan> plans = plan_operands(c);
  // How many terms operand k's gradient sums per element: outer's other vector, a matrix product's free dim of the
  // other operand (a's gradient sums over b's columns, b's over a's rows; a vector has none), or the broadcast over
  // operand k.
  const Result<Shape> out = broadcast_shapes(c.shapes);
  const auto terms = [&](size_t k) -> int64_t {
    if (c.op == Op::outer && plans.size() == 2) return numel(plans[1 - k].shape);
    if (entry(c.op).family == Family::matmul && plans.size() == 2) {
      const Shape& other = plans[1 - k].shape;
      if (other.size() < 2) return 1;
      return k == 0 ? other.back() : other[other.size() - 2];
    }
    if (!out.ok() || numel(plans[k].shape) == 0) return 1;
    return numel(out.value()) / numel(plans[k].shape);
  };
  bool summed = false;  // a floating operand that requires grad sums several terms per element
  int bits = 0;         // the widest significand among the floating operands: the dtype the integers convert to
  for (size_t k = 0; k < plans.size(); ++k) {
    if (category(plans[k].dtype) != Category::floating) continue;
    bits = std::max(bits, significand_bits(plans[k].dtype));
    summed = summed || (k < c.requires_grad.size() && c.requires_grad[k] && terms(k) > 1);
  }
  if (!summed) return false;
  for (size_t k = 0; k < plans.size(); ++k)
    if (category(plans[k].dtype) == Category::integer && beyond_exact(seen_values(plans, k), bits)) return true;
  return false;
}

bool batches_summed(const Case& c) {
  if (out_of_place(c.op) != Op::addbmm || c.shapes.size() != 3 || c.shapes[1].size() != 3 || c.shapes[1][0] < 2 ||
      !c.values)
    return false;
  for (const OperandPlan& p : plan_operands(c))  // an overlapping operand's values are its base's, checked there
    if (!p.base_values.integers())
      for (double x : p.base_values.floats())
        if (!std::isfinite(x)) return false;
  return true;
}

// A reduction's dims as given, wrapped where in range (out-of-range ones left out).
std::vector<int64_t> wrapped_dims(const Case& c) {
  const int64_t wrap = std::max<int64_t>(c.shapes.empty() ? 0 : static_cast<int64_t>(c.shapes[0].size()), 1);
  std::vector<int64_t> out;
  for (int64_t d : c.dims.value_or(std::vector<int64_t>{}))
    if (d >= -wrap && d < wrap) out.push_back(d < 0 ? d + wrap : d);
  return out;
}

const std::vector<std::string>& case_condition_names() {
  static const std::vector<std::string> names = {
      "input_is_self", "self_shares_memory", "graph_maximum_minimum", "graph_sign",   "graph_exp",
      "graph_exp_log", "graph_abs",          "out_given",             "out_shape_differs", "empty_dims",
      "dims_of_0d",    "unsorted_dims",      "repeated_dims",         "graph_remainder",
      "prod_order_decides_zero", "sum_order_rounds", "grad_sum_rounds", "batches_summed", "graph_atan2", "graph_pow",
      "column_major_matrices", "gradient", "vector_operand", "graph_comparison", "integral_reduction",
      "large_values", "subnormal_values", "graph_where", "number_operand", "number_above_category",
      "number_beyond_dtype", "mixed_branch_dtypes", "infinite_values", "zero_divisor", "bool_first_branch",
      "shift_count_outside_width", "where_bool_branches"};
  return names;
}

bool case_has(const std::string& name, const Case& c) {
  const std::string_view condition = name;  // compared size first: declarations ask this of every case they might cover
  if (condition == "input_is_self") return input_is_self(c);
  if (condition == "self_shares_memory") return self_shares_memory(c);
  if (condition == "graph_maximum_minimum") return graph_uses(c, {Op::maximum, Op::minimum});
  if (condition == "graph_sign") return graph_uses(c, {Op::sign});
  if (condition == "graph_exp") return graph_uses(c, {Op::exp});
  if (condition == "graph_abs") return graph_uses(c, {Op::abs});
  if (condition == "graph_exp_log") return graph_uses(c, {Op::exp, Op::log});
  if (condition == "graph_remainder") return graph_uses(c, {Op::remainder});
  if (condition == "graph_atan2") return graph_uses(c, {Op::atan2});
  if (condition == "graph_pow") return graph_uses(c, {Op::pow});
  if (condition == "out_given") return c.out.has_value();
  if (condition == "out_shape_differs") return out_shape_differs(c);
  if (condition == "empty_dims") return c.dims && c.dims->empty();
  if (condition == "dims_of_0d") return c.dims && !c.dims->empty() && !c.shapes.empty() && c.shapes[0].empty();
  if (condition == "prod_order_decides_zero") return prod_order_decides_zero(c);
  if (condition == "sum_order_rounds") return sum_order_rounds(c);
  if (condition == "grad_sum_rounds") return grad_sum_rounds(c);
  if (condition == "batches_summed") return batches_summed(c);
  if (condition == "column_major_matrices") return column_major_matrices(c);
  if (condition == "gradient") return std::find(c.requires_grad.begin(), c.requires_grad.end(), true) != c.requires_grad.end();
  if (condition == "vector_operand")
    return std::any_of(c.shapes.begin(), c.shapes.end(), [](const Shape& s) { return s.size() == 1; });
  if (condition == "graph_comparison") return graph_uses(c, {Op::eq, Op::ne, Op::lt, Op::le, Op::gt, Op::ge});
  if (condition == "integral_reduction") return integral_reduction(c);
  if (condition == "large_values") return large_values(c);
  if (condition == "subnormal_values") return subnormal_values(c);
  if (condition == "graph_where") return graph_uses(c, {Op::where});
  if (condition == "mixed_branch_dtypes")
    return c.op == Op::where && c.dtypes.size() == 3 && c.dtypes[1] != c.dtypes[2];
  if (condition == "infinite_values") return infinite_values(c);
  if (condition == "zero_divisor") return zero_divisor(c);
  if (condition == "bool_first_branch")
    return c.op == Op::where && c.dtypes.size() == 3 && c.dtypes[1] == DType::bool_ && c.dtypes[2] != DType::bool_;
  if (condition == "number_operand") return has_numbers(c);
  if (condition == "number_above_category") return number_above_category(c);
  if (condition == "number_beyond_dtype") return number_beyond_dtype(c);
  if (condition == "shift_count_outside_width") return shift_count_outside_width(c);
  if (condition == "where_bool_branches") return where_bool_branches(c);
  const std::vector<int64_t> w = wrapped_dims(c);
  if (condition == "unsorted_dims") return !std::is_sorted(w.begin(), w.end());
  if (condition == "repeated_dims") {
    std::vector<int64_t> sorted = w;
    std::sort(sorted.begin(), sorted.end());
    return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
  }
  return false;
}

}  // namespace bc
