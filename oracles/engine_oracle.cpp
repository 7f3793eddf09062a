#include "oracles/engine_oracle.h"

#include "engine/broadcast.h"
#include "engine/autograd_ops.h"
#include "engine/expand.h"
#include "engine/inplace.h"
#include "engine/autograd_addcmul.h"
#include "engine/autograd_products.h"
#include "engine/sum_to.h"
#include "harness/operands.h"

namespace bc {
namespace {

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
    if (p.views_operand >= 0) {
      bases.push_back(bases[static_cast<size_t>(p.views_operand)]);
    } else {
      Result<ag::Var> base = ag::leaf(Tensor::from_values(p.base_shape, p.dtype, p.base_values), rg);
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

Result<ag::Var> forward_product(const Case& c, const std::vector<ag::Var>& t) {
  const bool inplace = c.op.back() == '_';
  const ProductOp op = *product_op_from_name(inplace ? c.op.substr(0, c.op.size() - 1) : c.op);
  if (!is_fused(op)) return ag::product(op, t[0], t[1]);
  const Scalar beta = scalar_of(c, "beta"), alpha = scalar_of(c, "alpha");
  return inplace ? ag::fused_(op, t[0], t[1], t[2], beta, alpha) : ag::fused(op, t[0], t[1], t[2], beta, alpha);
}

// addcmul and addcdiv, and their unfused forms (properties/equivalence.h).
Result<ag::Var> forward_addc(const Case& c, const std::vector<ag::Var>& t) {
  const bool inplace = c.op.back() == '_';
  const bool mul = c.op.find("addcmul") != std::string::npos;
  const Scalar value = scalar_of(c, "value");
  if (c.op.rfind("unfused_", 0) != 0) {
    const AddcOp op = mul ? AddcOp::addcmul : AddcOp::addcdiv;
    return inplace ? ag::addc_(op, t[0], t[1], t[2], value) : ag::addc(op, t[0], t[1], t[2], value);
  }
  Result<ag::Var> product = ag::binary(mul ? BinaryOp::mul : BinaryOp::div, t[1], t[2]);
  if (!product.ok()) return product;
  return inplace ? ag::binary_(BinaryOp::add, t[0], product.value(), value)
                 : ag::binary(BinaryOp::add, t[0], product.value(), value);
}

Result<ag::Var> forward(const Case& c, const std::vector<ag::Var>& t) {
  const OpInfo* info = find_op(c.op);
  const bool inplace = info->family == "inplace";
  const std::string name = inplace ? c.op.substr(0, c.op.size() - 1) : c.op;
  if (info->family == "matmul" || info->family == "fused") return forward_product(c, t);
  if (name.rfind("addc", 0) == 0 || name.rfind("unfused_addc", 0) == 0) return forward_addc(c, t);
  if (name == "lerp") return inplace ? ag::lerp_(t[0], t[1], t[2]) : ag::lerp(t[0], t[1], t[2]);
  if (name == "where") return ag::where(t[0], t[1], t[2]);
  if (name == "diamond") {
    Result<ag::Var> sum = ag::binary(BinaryOp::add, t[0], t[1]);
    if (!sum.ok()) return sum;
    return ag::binary(BinaryOp::mul, sum.value(), t[0]);
  }
  const std::optional<BinaryOp> op = binary_op_from_name(name);
  const Scalar alpha = scalar_of(c, "alpha");
  return inplace ? ag::binary_(*op, t[0], t[1], alpha) : ag::binary(*op, t[0], t[1], alpha);
}

Outcome failure(const Error& e) { return Outcome::failure(e.kind, e.message); }

// The value and gradient program of docs/notes/gradient-cases.md: forward; optionally write one operand in place;
// backward with the upstream gradient; each operand's gradient.
Outcome run_tensor_op(const Case& c) {
  const std::string name = c.op.back() == '_' ? c.op.substr(0, c.op.size() - 1) : c.op;
  const std::string& family = find_op(c.op)->family;
  if (name != "lerp" && name != "where" && name != "diamond" && !binary_op_from_name(name) && family != "matmul" &&
      family != "fused" && family != "unfused" && name.rfind("addc", 0) != 0)
    return Outcome::unsupported_because("the engine has no op " + c.op);
  Result<std::vector<ag::Var>> operands = build_operands(c);
  if (!operands.ok()) return failure(operands.error());
  const std::vector<ag::Var>& t = operands.value();
  Result<ag::Var> r = forward(c, t);
  if (!r.ok()) return failure(r.error());
  const Tensor& out = r.value()->data;
  Outcome o = Outcome::success(out.sizes(), to_string(out.dtype()));
  if (c.values) o.values = out.to_doubles();
  if (c.modify) {
    const ag::Var one = ag::leaf(Tensor::from_values({}, DType::int64, {1})).value();
    Result<ag::Var> m = ag::binary_(BinaryOp::add, t[static_cast<size_t>(*c.modify)], one);
    if (!m.ok()) return failure(m.error());
  }
  if (!is_gradient_case(c)) return o;
  const Tensor upstream = Tensor::from_values(out.sizes(), out.dtype(), upstream_values(c, out.dtype(), out.numel()));
  Result<bool> b = ag::backward(r.value(), upstream);
  if (!b.ok()) return failure(b.error());
  for (size_t k = 0; k < t.size(); ++k) {
    const ag::Var& v = t[k];
    if (!v->grad || k >= c.requires_grad.size() || !c.requires_grad[k]) o.grads.push_back(std::nullopt);
    else o.grads.push_back(Grad{v->grad->sizes(), to_string(v->grad->dtype()), v->grad->to_doubles()});
  }
  return o;
}

class EngineOracle : public Oracle {
 public:
  std::string name() const override { return "engine"; }
  std::string version() const override { return "broadcheck engine"; }
  Outcome run(const Case& c) override {
    const OpInfo* op = find_op(c.op);
    if (!op) return Outcome::unsupported_because("unknown op " + c.op);
    const std::string& family = op->family;
    if (family == "elementwise" || family == "inplace" || family == "autograd" || family == "matmul" ||
        family == "fused" || family == "unfused")
      return run_tensor_op(c);
    if (family == "broadcast_shapes") return from_result(broadcast_shapes(c.shapes));
    if (family == "expand") return from_result(expand_shape(c.shapes[0], c.shapes[1]));
    if (family == "sum_to") {
      Result<SumToPlan> plan = plan_sum_to(c.shapes[0], c.shapes[1]);
      if (!plan.ok()) return from_result(plan.error());
      return Outcome::success(apply_plan_shape(plan.value()));
    }
    return Outcome::unsupported_because("the engine has no op " + c.op);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_engine_oracle() { return std::make_unique<EngineOracle>(); }

}  // namespace bc
