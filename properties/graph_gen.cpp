#include "properties/graph_gen.h"

#include <algorithm>
#include <cmath>

#include "engine/elementwise.h"
#include "harness/operands.h"
#include "properties/exec.h"
#include "properties/case_shrinks.h"
#include "properties/shape_gen.h"
#include "properties/value_class_gen.h"
#include "properties/weighted.h"

namespace bc::gen {

namespace {

// The ops a node draws, simplest first (a shrink moves towards add).
const std::vector<std::pair<uint64_t, Op>>& binary_ops() {
  static const std::vector<std::pair<uint64_t, Op>> ops = {
      {3, Op::add}, {2, Op::sub}, {4, Op::mul}, {3, Op::div},   {3, Op::maximum}, {3, Op::minimum},
      {2, Op::pow}, {1, Op::atan2}, {1, Op::hypot}, {1, Op::fmod}, {1, Op::remainder}};
  return ops;
}
const std::vector<std::pair<uint64_t, Op>>& unary_ops() {
  static const std::vector<std::pair<uint64_t, Op>> ops = {{1, Op::neg}, {2, Op::abs}, {2, Op::sqrt}, {2, Op::exp},
                                                           {3, Op::log}, {1, Op::sign}, {3, Op::reciprocal}};
  return ops;
}
const std::vector<std::pair<uint64_t, Op>>& comparisons() {
  static const std::vector<std::pair<uint64_t, Op>> ops = {{2, Op::gt}, {2, Op::lt}, {1, Op::ge}, {1, Op::le},
                                                           {1, Op::eq}, {1, Op::ne}};
  return ops;
}

// Draws the program over `floats` float inputs (0..floats-1) and an optional bool input (index `floats`); without
// pow when `no_pow` (a float16 input: LibTorch's pow backward takes the base's log, which has no Half kernel on
// CPU, and the engine's autograd states no backward errors yet: docs/notes/dtypes.md).
Program draw_program(int floats, bool has_condition_input, bool no_pow) {
  const int inputs = floats + (has_condition_input ? 1 : 0);
  const int nodes = *weighted<int>({{2, 2}, {3, 3}, {3, 4}});
  Program p;
  // A float value other than `avoid` (any input or earlier float node), sometimes the same one (a diamond).
  const auto float_values = [&] {
    std::vector<int> out;
    for (int k = 0; k < floats; ++k) out.push_back(k);
    for (size_t j = 0; j < p.size(); ++j)
      if (!is_comparison(p[j].op)) out.push_back(inputs + static_cast<int>(j));
    return out;
  };
  const auto any_float = [&] {
    const std::vector<int> v = float_values();
    return v[static_cast<size_t>(index_below(static_cast<int>(v.size())))];
  };
  while (static_cast<int>(p.size()) < nodes) {
    // Every node reads the latest float value, so each one reaches the result.
    const int last = p.empty() ? 0 : inputs + static_cast<int>(p.size()) - 1;
    int kind = *weighted<int>({{5, 0}, {3, 1}, {3, 2}});  // binary, unary, where
    // A where needs a bool condition: the bool input, or a comparison node, if one more node fits.
    const bool room = static_cast<int>(p.size()) + 2 <= nodes;
    if (kind == 2 && !has_condition_input && !room) kind = 0;
    if (kind == 0) {
      std::vector<std::pair<uint64_t, Op>> ops = binary_ops();
      if (no_pow) ops.erase(std::remove_if(ops.begin(), ops.end(), [](const auto& w) { return w.second == Op::pow; }), ops.end());
      const Op op = *weighted(ops);
      const int other = any_float();
      p.push_back(*weighted<bool>({{3, false}, {1, true}}) ? ProgramNode{op, {other, last}} : ProgramNode{op, {last, other}});
    } else if (kind == 1) {
      p.push_back({*weighted(unary_ops()), {last}});
    } else {
      int cond = floats;  // the bool input, or a comparison node of two float values
      if (!has_condition_input || (room && *weighted<bool>({{1, false}, {1, true}}))) {
        p.push_back({*weighted(comparisons()), {last, any_float()}});
        cond = inputs + static_cast<int>(p.size()) - 1;
      }
      const int other = any_float();
      p.push_back(*weighted<bool>({{1, false}, {1, true}}) ? ProgramNode{Op::where, {cond, other, last}}
                                                            : ProgramNode{Op::where, {cond, last, other}});
    }
  }
  return p;
}

Case draw_graph_case() {
  const int floats = *weighted<int>({{3, 2}, {2, 3}, {1, 1}});
  const bool condition_input = *weighted<bool>({{2, false}, {1, true}});
  const int inputs = floats + (condition_input ? 1 : 0);
  Case c = make_case(Op::graph, *broadcastable(inputs, 4), {});
  const auto dtype = weighted<DType>({{6, DType::float32}, {2, DType::float64}, {1, DType::float16}, {1, DType::bfloat16}});
  for (int k = 0; k < floats; ++k) c.dtypes.push_back(*dtype);
  c.program = draw_program(floats, condition_input,
                           std::find(c.dtypes.begin(), c.dtypes.end(), DType::float16) != c.dtypes.end());
  if (condition_input) c.dtypes.push_back(DType::bool_);
  const auto layout = weighted<Layout>({{6, Layout::contiguous}, {1, Layout::transposed}, {1, Layout::strided},
                                        {1, Layout::expanded}});
  for (int k = 0; k < inputs; ++k) c.layouts.push_back(*layout);
  ValueSpec v;
  v.seed = *rc::gen::inRange<uint64_t>(0, 1000000);
  v.special = *weighted<bool>({{2, false}, {1, true}});
  c.values = v;
  if (*weighted<bool>({{3, true}, {1, false}})) {
    c.requires_grad.assign(static_cast<size_t>(inputs), false);
    for (int k = 0; k < floats; ++k) c.requires_grad[static_cast<size_t>(k)] = *weighted<bool>({{3, true}, {1, false}});
    c.requires_grad[static_cast<size_t>(index_below(floats))] = true;
    if (*weighted<bool>({{1, false}, {1, true}})) c.grad_seed = *rc::gen::inRange<uint64_t>(0, 1000000);
    c.tags.push_back(c.grad_seed ? "upstream seeded" : "upstream ones");
    c.tags.push_back("gradient");
  } else {
    c.tags.push_back("forward only");
  }
  draw_value_class(c, 8);
  if (v.special) c.tags.push_back("special values");
  if (condition_input) c.tags.push_back("bool condition input");
  if (has_nonfinite_intermediate(c)) c.tags.push_back("non-finite intermediate");
  tag_dtypes_and_layouts(c);
  return c;
}

}  // namespace

bool has_nonfinite_intermediate(const Case& c) {
  if (!c.values || c.program.size() < 2) return false;
  std::vector<Tensor> values;
  for (const OperandPlan& plan : plan_operands(c))
    values.push_back(Tensor::from_values(plan.shape, plan.dtype, view_values(plan, plan.base_values).to_doubles()));
  for (size_t j = 0; j + 1 < c.program.size(); ++j) {
    const ProgramNode& node = c.program[j];
    std::vector<Tensor> a;
    for (int k : node.args) a.push_back(values[static_cast<size_t>(k)]);
    Result<Tensor> r = node.op == Op::where ? where(a[0], a[1], a[2])
                       : a.size() == 1     ? unary(node.op, a[0])
                                           : binary(node.op, a[0], a[1]);
    if (!r.ok()) return false;
    for (double x : r.value().to_doubles())
      if (!std::isfinite(x)) return true;
    values.push_back(r.value());
  }
  return false;
}

rc::Gen<Case> graph_case() {
  const rc::Gen<Case> draw = bc::gen::exec(draw_graph_case);
  return rc::Gen<Case>([draw](const rc::Random& random, int size) { return shrinkable_case(draw(random, size).value()); });
}

}  // namespace bc::gen
