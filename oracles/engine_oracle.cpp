#include "oracles/engine_oracle.h"

#include "engine/broadcast.h"
#include "engine/elementwise.h"
#include "engine/expand.h"
#include "engine/inplace.h"
#include "engine/matmul_shape.h"
#include "engine/sum_to.h"
#include "harness/operands.h"

namespace bc {
namespace {

Outcome from_result(const Result<Shape>& r) {
  if (r.ok()) return Outcome::success(r.value());
  return Outcome::failure(r.error().kind, r.error().message);
}

// The operands of a case as engine tensors, in the case's layouts (harness/operands.h).
std::vector<Tensor> build_operands(const Case& c) {
  std::vector<Tensor> bases, views;
  for (const OperandPlan& p : plan_operands(c)) {
    bases.push_back(p.views_operand >= 0 ? bases[static_cast<size_t>(p.views_operand)]
                                         : Tensor::from_values(p.base_shape, p.dtype, p.base_values));
    views.push_back(bases.back().as_strided(p.shape, p.strides, p.offset).value());
  }
  return views;
}

Outcome from_tensor(const Result<Tensor>& r, bool with_values) {
  if (!r.ok()) return Outcome::failure(r.error().kind, r.error().message);
  Outcome o = Outcome::success(r.value().sizes(), to_string(r.value().dtype()));
  if (with_values) o.values = r.value().to_doubles();
  return o;
}

// The elementwise ops on real engine tensors (values, dtypes, layouts, in-place rules).
Outcome run_tensor_op(const Case& c, bool inplace) {
  std::vector<Tensor> t = build_operands(c);
  const std::string name = inplace ? c.op.substr(0, c.op.size() - 1) : c.op;
  const bool values = c.values.has_value();
  if (name == "lerp") return from_tensor(inplace ? lerp_(t[0], t[1], t[2]) : lerp(t[0], t[1], t[2]), values);
  if (name == "where") return from_tensor(where(t[0], t[1], t[2]), values);
  const std::optional<BinaryOp> op = binary_op_from_name(name);
  if (!op) return Outcome::unsupported_because("the engine has no op " + c.op);
  const Scalar alpha{c.alpha.value_or(1.0), c.alpha ? c.alpha_is_integer : true};
  return from_tensor(inplace ? binary_(*op, t[0], t[1], alpha) : binary(*op, t[0], t[1], alpha), values);
}

class EngineOracle : public Oracle {
 public:
  std::string name() const override { return "engine"; }
  std::string version() const override { return "broadcheck engine"; }
  Outcome run(const Case& c) override {
    const OpInfo* op = find_op(c.op);
    if (!op) return Outcome::unsupported_because("unknown op " + c.op);
    const std::string& family = op->family;
    if (family == "elementwise") return run_tensor_op(c, false);
    if (family == "inplace") return run_tensor_op(c, true);
    if (family == "broadcast_shapes") return from_result(broadcast_shapes(c.shapes));
    if (family == "expand") return from_result(expand_shape(c.shapes[0], c.shapes[1]));
    if (family == "sum_to") {
      Result<SumToPlan> plan = plan_sum_to(c.shapes[0], c.shapes[1]);
      if (!plan.ok()) return from_result(plan.error());
      return Outcome::success(apply_plan_shape(plan.value()));
    }
    if (family == "matmul") return from_result(matmul_shape(c.shapes[0], c.shapes[1]));
    return Outcome::unsupported_because("the engine has no op " + c.op);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_engine_oracle() { return std::make_unique<EngineOracle>(); }

}  // namespace bc
