#include "oracles/engine_oracle.h"

#include "engine/broadcast.h"
#include "engine/autograd_ops.h"
#include "engine/expand.h"
#include "engine/inplace.h"
#include "engine/out_form.h"
#include "engine/autograd_addcmul.h"
#include "engine/autograd_products.h"
#include "engine/reduction.h"
#include "engine/sum_to.h"
#include "harness/operands.h"
#include "oracles/binding_table.h"

namespace bc {
namespace {

// A tensor holding plan values exactly, and a tensor's elements as exact values (harness/values.h).
Tensor tensor_of(const Shape& sizes, DType dtype, const Values& values) {
  std::vector<Value> elements;
  for (size_t k = 0; k < values.size(); ++k)
    elements.push_back(values.integers() ? Value::of_int(values.ints()[k]) : Value::of_float(values.floats()[k]));
  return Tensor::of_values(sizes, dtype, elements);
}

Values values_of(const Tensor& t) {
  if (!holds_integers(t.dtype())) return t.to_doubles();
  std::vector<int64_t> ints;
  for (const Value& v : t.values()) ints.push_back(v.i);
  return Values(std::move(ints));
}

Outcome from_result(const Result<Shape>& r) {
  if (r.ok()) return Outcome::success(r.value());
  return Outcome::failure(r.error().kind, r.error().message);
}

// The operands of a case as engine vars, in the case's layouts (harness/operands.h). An operand that requires grad
// is a leaf when contiguous, else a view of a leaf base that requires grad (its gradient retained), as in LibTorch.
Result<std::vector<ag::Var>> build_operands(const Case& c) {
  static const char* const view_node[] = {"", "TransposeBackward0", "SliceBackward0", "ExpandBackward0",
                                          "AsStridedBackward0"};
  std::vector<ag::Var> bases, views;
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    const OperandPlan& p = plans[k];
    const bool rg = k < c.requires_grad.size() && c.requires_grad[k];
    if (p.number) {  // a Python number: PyTorch's wrapped 0-d tensor (engine/tensor.h)
      bases.push_back(ag::leaf(wrapped_number(*p.number), false).value());
      views.push_back(bases.back());
      continue;
    }
    if (p.views_operand >= 0) {
      bases.push_back(bases[static_cast<size_t>(p.views_operand)]);
    } else {
      Result<ag::Var> base = ag::leaf(tensor_of(p.base_shape, p.dtype, p.base_values), rg);
      if (!base.ok()) return base.error();
      bases.push_back(base.value());
    }
    const ag::Var& base = bases.back();
    Tensor view = base->data.as_strided(p.shape, p.strides, p.offset).value();
    if (p.layout == Layout::contiguous && p.views_operand < 0) {
      views.push_back(base);
      continue;
    }
    Result<ag::Var> v = ag::view_of(base, view, view_node[static_cast<int>(p.layout)]);
    if (!v.ok()) return v.error();
    ag::retain_grad(v.value());
    views.push_back(v.value());
  }
  return views;
}

Result<ag::Var> forward_product(const Case& c, Op op, const std::vector<ag::Var>& t) {
  const ProductOp product = *product_op(op);
  if (!is_fused(product)) return ag::product(product, t[0], t[1]);
  const Scalar beta = scalar_of(c, "beta"), alpha = scalar_of(c, "alpha");
  return is_inplace(op) ? ag::fused_(product, t[0], t[1], t[2], beta, alpha)
                        : ag::fused(product, t[0], t[1], t[2], beta, alpha);
}

// addcmul and addcdiv (in place too), and their unfused forms (properties/equivalence.h).
Result<ag::Var> forward_addc(Op op, AddcOp addc, bool unfused, const Case& c, const std::vector<ag::Var>& t) {
  const Scalar value = scalar_of(c, "value");
  if (!unfused)
    return is_inplace(op) ? ag::addc_(addc, t[0], t[1], t[2], value) : ag::addc(addc, t[0], t[1], t[2], value);
  Result<ag::Var> product = ag::binary(addc == AddcOp::addcmul ? Op::mul : Op::div, t[1], t[2]);
  if (!product.ok()) return product;
  return is_inplace(op) ? ag::binary_(Op::add, t[0], product.value(), value)
                        : ag::binary(Op::add, t[0], product.value(), value);
}

Result<ag::Var> forward(const Case& c, Op op, const std::vector<ag::Var>& t);

// A graph case's program (harness/program.h), node by node on the engine's vars; backward() then walks the
// recorded graph in reverse topological order.
Result<ag::Var> forward_graph(const Case& c, Op, const std::vector<ag::Var>& inputs) {
  std::vector<ag::Var> values = inputs;
  for (const ProgramNode& node : c.program) {
    std::vector<ag::Var> args;
    for (int a : node.args) args.push_back(values[static_cast<size_t>(a)]);
    Result<ag::Var> r = forward(c, node.op, args);
    if (!r.ok()) return r;
    values.push_back(r.value());
  }
  if (c.program.empty()) return Error{ErrorKind::invalid_argument, "a graph case needs a program"};
  return values.back();
}

// The engine's binding of one op: its forward on the engine's vars (the op or its in-place form; autograd records
// the backward as it goes), or, for a shape rule, the rule on the case's shapes.
using EngineForward = Result<ag::Var> (*)(const Case& c, Op op, const std::vector<ag::Var>& t);
using EngineShapes = Outcome (*)(const Case& c);
struct EngineRow {
  EngineForward forward = nullptr;
  EngineShapes shapes = nullptr;
};
EngineRow runs(EngineForward f) { return {f, nullptr}; }
EngineRow shapes(EngineShapes f) { return {nullptr, f}; }

// The ops with an engine rule in their op table entry (pointwise binary and unary, reductions, fill, and the
// products: the entry's product_op) are bound to their rule's code here, each once: the entry is the engine's row.
Result<ag::Var> by_rule(const Case& c, Op op, const std::vector<ag::Var>& t) {
  if (binary_rule(op))
    return is_inplace(op) ? ag::binary_(op, t[0], t[1], scalar_of(c, "alpha")) : ag::binary(op, t[0], t[1], scalar_of(c, "alpha"));
  if (unary_rule(op)) return ag::unary(op, t[0]);
  if (reduction_rule(op)) return ag::reduce(op, t[0], reduce_args(c));
  if (fill_rule(op)) return ag::fill_(op, t[0], scalar_of(c, "value"));
  return forward_product(c, op, t);  // rule_cells binds no op without a rule
}
std::vector<BindingTable<EngineRow>::Cell> rule_cells() {
  std::vector<BindingTable<EngineRow>::Cell> cells;
  for (const OpEntry& e : op_table())
    if (!e.base && (e.binary || e.unary || e.reduction || e.fill || product_op(e.op))) cells.push_back({e.op, runs(by_rule)});
  return cells;
}

// The other ops, each with its engine code.
const BindingTable<EngineRow>& bindings() {
  using C = BindingTable<EngineRow>::Cell;
  static const BindingTable<EngineRow> table("oracles/engine_oracle.cpp", [] {
    std::vector<C> cells = {
        {Op::lerp, runs([](const Case&, Op op, const std::vector<ag::Var>& t) {
           return is_inplace(op) ? ag::lerp_(t[0], t[1], t[2]) : ag::lerp(t[0], t[1], t[2]);
         })},
        {Op::where, runs([](const Case&, Op, const std::vector<ag::Var>& t) { return ag::where(t[0], t[1], t[2]); })},
        {Op::addcmul, runs([](const Case& c, Op op, const std::vector<ag::Var>& t) {
           return forward_addc(op, AddcOp::addcmul, false, c, t);
         })},
        {Op::addcdiv, runs([](const Case& c, Op op, const std::vector<ag::Var>& t) {
           return forward_addc(op, AddcOp::addcdiv, false, c, t);
         })},
        {Op::unfused_addcmul, runs([](const Case& c, Op op, const std::vector<ag::Var>& t) {
           return forward_addc(op, AddcOp::addcmul, true, c, t);
         })},
        {Op::unfused_addcdiv, runs([](const Case& c, Op op, const std::vector<ag::Var>& t) {
           return forward_addc(op, AddcOp::addcdiv, true, c, t);
         })},
        {Op::broadcast_shapes, shapes([](const Case& c) { return from_result(broadcast_sizes(c.shapes)); })},
        {Op::expand, shapes([](const Case& c) { return from_result(expand_shape(c.shapes[0], c.shapes[1])); })},
        {Op::sum_to, shapes([](const Case& c) {
           Result<SumToPlan> plan = plan_sum_to(c.shapes[0], c.shapes[1]);
           if (!plan.ok()) return from_result(plan.error());
           return Outcome::success(apply_plan_shape(plan.value()));
         })},
        {Op::diamond, runs([](const Case&, Op, const std::vector<ag::Var>& t) {
           Result<ag::Var> sum = ag::binary(Op::add, t[0], t[1]);
           if (!sum.ok()) return sum;
           return ag::binary(Op::mul, sum.value(), t[0]);
         })},
        {Op::dist, runs([](const Case&, Op, const std::vector<ag::Var>& t) { return ag::dist(t[0], t[1]); })},
        {Op::graph, runs(forward_graph)},
    };
    for (C& cell : rule_cells()) cells.push_back(std::move(cell));
    return cells;
  }());
  return table;
}

// The op's forward on the engine's vars: its row's.
Result<ag::Var> forward(const Case& c, Op op, const std::vector<ag::Var>& t) {
  const EngineRow* row = bindings().row(op);
  if (!row || !row->forward)
    return Error{ErrorKind::other, std::string("the engine has no tensor program for ") + to_string(op)};
  return row->forward(c, op, t);
}

Outcome failure(const Error& e) { return Outcome::failure(e.kind, e.message); }

// The value and gradient program of docs/notes/gradient-cases.md: forward; optionally write one operand in place;
// backward with the upstream gradient (`given`, or the case's own); each operand's gradient.
Outcome run_tensor_op(const Case& c, Op op, const Grad* given = nullptr) {
  Result<std::vector<ag::Var>> operands = build_operands(c);
  if (!operands.ok()) return failure(operands.error());
  const std::vector<ag::Var>& t = operands.value();
  Result<ag::Var> r = forward(c, op, t);
  if (!r.ok()) return failure(r.error());
  const Tensor& out = r.value()->data;
  if (given && (given->shape != out.sizes() || given->dtype != to_string(out.dtype())))
    return Outcome::failure(ErrorKind::other, "the upstream gradient is " + given->dtype + " " +
                                                  format_shape(given->shape) + ", the result " +
                                                  to_string(out.dtype()) + " " + format_shape(out.sizes()));
  Outcome o = Outcome::success(out.sizes(), to_string(out.dtype()));
  if (c.values) o.values = values_of(out);
  if (c.modify) {
    const ag::Var one = ag::leaf(Tensor::from_values({}, DType::int64, {1})).value();
    Result<ag::Var> m = ag::binary_(Op::add, t[static_cast<size_t>(*c.modify)], one);
    if (!m.ok()) return failure(m.error());
  }
  if (!is_gradient_case(c)) return o;
  const Tensor upstream = tensor_of(out.sizes(), out.dtype(),
                                    given ? given->values : upstream_values(c, out.dtype(), out.numel()));
  Result<bool> b = ag::backward(r.value(), upstream);
  if (!b.ok()) return failure(b.error());
  for (size_t k = 0; k < t.size(); ++k) {
    const ag::Var& v = t[k];
    if (!v->grad || k >= c.requires_grad.size() || !c.requires_grad[k]) o.grads.push_back(std::nullopt);
    else o.grads.push_back(Grad{v->grad->sizes(), to_string(v->grad->dtype()), values_of(*v->grad)});
  }
  return o;
}

// The out= form (engine/out_form.h) into a fresh out of the case's shape and dtype; no backward is run (LibTorch
// refuses out= under autograd, or records no graph for it).
Outcome run_out_form(const Case& c, Op op) {
  Result<std::vector<ag::Var>> operands = build_operands(c);
  if (!operands.ok()) return failure(operands.error());
  const std::vector<ag::Var>& t = operands.value();
  Result<OutForm> r = binary_out_form(op, t[0]->data, t[1]->data, scalar_of(c, "alpha"), c.out->shape, c.out->dtype,
                                      is_gradient_case(c));
  if (!r.ok()) return failure(r.error());
  const Tensor& out = r.value().result;
  Outcome o = Outcome::success(out.sizes(), to_string(out.dtype()));
  if (c.values) o.values = values_of(out);
  o.warnings = r.value().warnings;
  return o;
}

class EngineOracle : public Oracle {
 public:
  EngineOracle() { bindings().check(); }
  std::string name() const override { return "engine"; }
  std::string version() const override { return "broadcheck engine"; }
  Outcome run(const Case& c) override {
    const OpEntry* op = &entry(c.op);
    if (c.out) return run_out_form(c, op->op);
    switch (op->family) {
      case Family::elementwise: case Family::inplace: case Family::autograd: case Family::matmul:
      case Family::fused: case Family::unfused: case Family::reduction: case Family::reduce_dims:
      case Family::fill:
        return run_tensor_op(c, op->op);
      case Family::broadcast_shapes: case Family::expand: case Family::sum_to: {
        const EngineRow* row = bindings().row(op->op);
        if (!row || !row->shapes) return Outcome::unsupported_because(bindings().reason(op->op));
        return row->shapes(c);
      }
    }
    return Outcome::unsupported_because(std::string("the engine has no op ") + op->name);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_engine_oracle() { return std::make_unique<EngineOracle>(); }
const BindingProblems& engine_binding_problems() { return bindings().problems(); }

std::optional<Grad> rule_upstream(const Case& c) {
  const OpEntry* op = &entry(c.op);
  if (!is_gradient_case(c) || c.out || !computes_values(op->family)) return std::nullopt;
  Result<std::vector<ag::Var>> operands = build_operands(c);
  if (!operands.ok()) return std::nullopt;
  Result<ag::Var> r = forward(c, op->op, operands.value());
  if (!r.ok()) return std::nullopt;
  const Tensor& out = r.value()->data;
  return Grad{out.sizes(), to_string(out.dtype()), upstream_values(c, out.dtype(), out.numel())};
}

Outcome engine_outcome_from(const Case& c, const Grad& upstream) {
  const OpEntry* op = &entry(c.op);
  if (c.out || !computes_values(op->family))
    return Outcome::failure(ErrorKind::other, std::string("no backward runs for ") + op->name);
  return run_tensor_op(c, op->op, &upstream);
}

}  // namespace bc
