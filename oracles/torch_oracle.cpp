#include "oracles/torch_oracle.h"

#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <c10/util/Logging.h>
#include <torch/version.h>

#include <map>

#include "harness/operands.h"
#include "oracles/torch_errors.h"

namespace bc {
namespace {

std::string dtype_name(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return "float32";
    case at::kDouble: return "float64";
    case at::kLong: return "int64";
    case at::kBool: return "bool";
    default: return c10::toString(t);
  }
}

at::Tensor make(const Shape& s) { return at::zeros(s, at::kFloat); }

Outcome from_tensor(const at::Tensor& t) {
  return Outcome::success(Shape(t.sizes().begin(), t.sizes().end()), dtype_name(t.scalar_type()));
}

at::ScalarType scalar_type(DType t) {
  switch (t) {
    case DType::bool_: return at::kBool;
    case DType::int64: return at::kLong;
    case DType::float32: return at::kFloat;
    case DType::float64: return at::kDouble;
  }
  return at::kFloat;
}

// A fresh contiguous tensor holding `values` exactly (each is representable in the dtype: harness/operands.h).
at::Tensor filled(const Shape& shape, DType dtype, const std::vector<double>& values) {
  at::Tensor t = at::empty(shape, scalar_type(dtype));
  const int64_t n = t.numel();
  for (int64_t k = 0; k < n; ++k) {
    const double v = values[static_cast<size_t>(k)];
    switch (dtype) {
      case DType::bool_: t.data_ptr<bool>()[k] = v != 0; break;
      case DType::int64: t.data_ptr<int64_t>()[k] = static_cast<int64_t>(v); break;
      case DType::float32: t.data_ptr<float>()[k] = static_cast<float>(v); break;
      case DType::float64: t.data_ptr<double>()[k] = v; break;
    }
  }
  return t;
}

// The operands as real LibTorch views of fresh bases: transpose, slice with a step, expand, as_strided. A base
// that requires grad does so before its view is taken (the view is then not a leaf: its gradient is retained).
std::vector<at::Tensor> build_operands(const Case& c) {
  std::vector<at::Tensor> bases, views;
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    const OperandPlan& p = plans[k];
    if (p.views_operand >= 0) {
      bases.push_back(bases[static_cast<size_t>(p.views_operand)]);
    } else {
      bases.push_back(filled(p.base_shape, p.dtype, p.base_values));
      if (k < c.requires_grad.size() && c.requires_grad[k]) bases.back().requires_grad_(true);
    }
    const at::Tensor& base = bases.back();
    switch (p.layout) {
      case Layout::contiguous: views.push_back(p.views_operand >= 0 ? base.as_strided(p.shape, p.strides, p.offset) : base); break;
      case Layout::transposed: views.push_back(base.transpose(-2, -1)); break;
      case Layout::strided: views.push_back(base.slice(-1, 0, base.size(-1), 2)); break;
      case Layout::expanded: views.push_back(base.expand(p.shape)); break;
      case Layout::overlapping: views.push_back(base.as_strided(p.shape, p.strides, p.offset)); break;
    }
    if (views.back().requires_grad() && !views.back().is_leaf()) views.back().retain_grad();
  }
  return views;
}

at::Tensor run_binary(const std::string& op, const at::Tensor& a, const at::Tensor& b, const at::Scalar& alpha) {
  static const std::map<std::string, at::Tensor (*)(const at::Tensor&, const at::Tensor&)> plain = {
      {"mul", [](const at::Tensor& x, const at::Tensor& y) { return at::mul(x, y); }},
      {"div", [](const at::Tensor& x, const at::Tensor& y) { return at::div(x, y); }},
      {"pow", [](const at::Tensor& x, const at::Tensor& y) { return at::pow(x, y); }},
      {"atan2", [](const at::Tensor& x, const at::Tensor& y) { return at::atan2(x, y); }},
      {"fmod", [](const at::Tensor& x, const at::Tensor& y) { return at::fmod(x, y); }},
      {"remainder", [](const at::Tensor& x, const at::Tensor& y) { return at::remainder(x, y); }},
      {"maximum", [](const at::Tensor& x, const at::Tensor& y) { return at::maximum(x, y); }},
      {"minimum", [](const at::Tensor& x, const at::Tensor& y) { return at::minimum(x, y); }},
      {"eq", [](const at::Tensor& x, const at::Tensor& y) { return at::eq(x, y); }},
      {"ne", [](const at::Tensor& x, const at::Tensor& y) { return at::ne(x, y); }},
      {"lt", [](const at::Tensor& x, const at::Tensor& y) { return at::lt(x, y); }},
      {"le", [](const at::Tensor& x, const at::Tensor& y) { return at::le(x, y); }},
      {"gt", [](const at::Tensor& x, const at::Tensor& y) { return at::gt(x, y); }},
      {"ge", [](const at::Tensor& x, const at::Tensor& y) { return at::ge(x, y); }},
  };
  if (op == "add") return at::add(a, b, alpha);
  if (op == "sub") return at::sub(a, b, alpha);
  return plain.at(op)(a, b);
}

at::Tensor run_binary_(const std::string& op, at::Tensor& a, const at::Tensor& b, const at::Scalar& alpha) {
  if (op == "add_") return a.add_(b, alpha);
  if (op == "sub_") return a.sub_(b, alpha);
  if (op == "mul_") return a.mul_(b);
  if (op == "div_") return a.div_(b);
  if (op == "pow_") return a.pow_(b);
  if (op == "atan2_") return a.atan2_(b);
  if (op == "fmod_") return a.fmod_(b);
  if (op == "remainder_") return a.remainder_(b);
  if (op == "eq_") return a.eq_(b);
  if (op == "ne_") return a.ne_(b);
  if (op == "lt_") return a.lt_(b);
  if (op == "le_") return a.le_(b);
  if (op == "gt_") return a.gt_(b);
  return a.ge_(b);
}

// A case's scalar as the Python value it stands for: an int or a float.
at::Scalar torch_scalar(const Scalar& s) {
  return s.integral ? at::Scalar(static_cast<int64_t>(s.value)) : at::Scalar(s.value);
}

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor d = t.to(at::kDouble).contiguous();
  return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
}

at::Tensor run_product(const Case& c, std::vector<at::Tensor>& t) {
  static const std::map<std::string, at::Tensor (*)(const at::Tensor&, const at::Tensor&)> products = {
      {"matmul", [](const at::Tensor& a, const at::Tensor& b) { return at::matmul(a, b); }},
      {"mm", [](const at::Tensor& a, const at::Tensor& b) { return at::mm(a, b); }},
      {"bmm", [](const at::Tensor& a, const at::Tensor& b) { return at::bmm(a, b); }},
      {"mv", [](const at::Tensor& a, const at::Tensor& b) { return at::mv(a, b); }},
      {"dot", [](const at::Tensor& a, const at::Tensor& b) { return at::dot(a, b); }},
      {"outer", [](const at::Tensor& a, const at::Tensor& b) { return at::outer(a, b); }},
  };
  if (products.count(c.op)) return products.at(c.op)(t[0], t[1]);
  const at::Scalar beta = torch_scalar(scalar_of(c, "beta")), alpha = torch_scalar(scalar_of(c, "alpha"));
  if (c.op == "addmm") return at::addmm(t[0], t[1], t[2], beta, alpha);
  if (c.op == "addmv") return at::addmv(t[0], t[1], t[2], beta, alpha);
  if (c.op == "addr") return at::addr(t[0], t[1], t[2], beta, alpha);
  if (c.op == "baddbmm") return at::baddbmm(t[0], t[1], t[2], beta, alpha);
  if (c.op == "addbmm") return at::addbmm(t[0], t[1], t[2], beta, alpha);
  if (c.op == "addmm_") return t[0].addmm_(t[1], t[2], beta, alpha);
  if (c.op == "addmv_") return t[0].addmv_(t[1], t[2], beta, alpha);
  if (c.op == "addr_") return t[0].addr_(t[1], t[2], beta, alpha);
  if (c.op == "baddbmm_") return t[0].baddbmm_(t[1], t[2], beta, alpha);
  return t[0].addbmm_(t[1], t[2], beta, alpha);
}

// addcmul and addcdiv, and their unfused forms (properties/equivalence.h).
at::Tensor run_addc(const Case& c, std::vector<at::Tensor>& t) {
  const at::Scalar value = torch_scalar(scalar_of(c, "value"));
  if (c.op == "addcmul") return at::addcmul(t[0], t[1], t[2], value);
  if (c.op == "addcdiv") return at::addcdiv(t[0], t[1], t[2], value);
  if (c.op == "addcmul_") return t[0].addcmul_(t[1], t[2], value);
  if (c.op == "addcdiv_") return t[0].addcdiv_(t[1], t[2], value);
  const bool mul = c.op.find("addcmul") != std::string::npos;
  const at::Tensor product = mul ? at::mul(t[1], t[2]) : at::div(t[1], t[2]);
  return c.op.back() == '_' ? t[0].add_(product, value) : at::add(t[0], product, value);
}

at::Tensor forward(const OpInfo& op, const Case& c, std::vector<at::Tensor>& t) {
  // alpha as the case writes it: an int (the default 1) or a float, which LibTorch checks differently.
  const at::Scalar alpha = torch_scalar(scalar_of(c, "alpha"));
  if (op.family == "matmul" || op.family == "fused") return run_product(c, t);
  if (c.op.rfind("addc", 0) == 0 || c.op.rfind("unfused_addc", 0) == 0) return run_addc(c, t);
  if (c.op == "lerp") return at::lerp(t[0], t[1], t[2]);
  if (c.op == "lerp_") return t[0].lerp_(t[1], t[2]);
  if (c.op == "where") return at::where(t[0], t[1], t[2]);
  if (c.op == "diamond") return at::mul(at::add(t[0], t[1]), t[0]);
  return op.family == "inplace" ? run_binary_(c.op, t[0], t[1], alpha) : run_binary(c.op, t[0], t[1], alpha);
}

// The value and gradient program of docs/notes/gradient-cases.md, with LibTorch's real autograd.
Outcome run_program(const OpInfo& op, const Case& c) {
  std::vector<at::Tensor> t = build_operands(c);
  at::Tensor r = forward(op, c, t);
  Outcome o = from_tensor(r);
  if (c.values) o.values = values_of(r);
  if (c.modify) t[static_cast<size_t>(*c.modify)].add_(1);
  if (!is_gradient_case(c)) return o;
  const DType out_type = dtype_from_string(o.dtype).value_or(DType::float32);
  r.backward(filled(o.shape, out_type, upstream_values(c, out_type, r.numel())));
  for (size_t k = 0; k < t.size(); ++k) {
    // Only operands that require grad are asked (LibTorch warns when asked for a non-leaf's unretained .grad).
    const at::Tensor g = k < c.requires_grad.size() && c.requires_grad[k] ? t[k].grad() : at::Tensor();
    if (!g.defined()) o.grads.push_back(std::nullopt);
    else o.grads.push_back(Grad{Shape(g.sizes().begin(), g.sizes().end()), dtype_name(g.scalar_type()), values_of(g)});
  }
  return o;
}

// LibTorch's warnings go to stderr by default, once per case that triggers them. The outcome is what the oracle
// reports; the one warning the runs meet ("An output with one or more elements was resized ...") comes from
// addmv's empty-matrix shortcut, whose wrong result shape the outcomes already show (torch-blas-empty-shortcut).
class SilentWarnings : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
};

class TorchOracle : public Oracle {
 public:
  TorchOracle() {
    static SilentWarnings silent;
    c10::Warning::set_warning_handler(&silent);
    at::set_num_threads(1);
    // c10::Error walks the C++ stack for a backtrace on every failed check (about 1 ms here, most of a failing
    // case's cost). The oracle reports what_without_backtrace() only, so it asks for no backtrace at all.
    c10::SetStackTraceFetcher([] { return std::string(); });
  }
  std::string name() const override { return "torch"; }
  std::string version() const override { return std::string("LibTorch ") + TORCH_VERSION; }

  Outcome run(const Case& c) override {
    const OpInfo* op = find_op(c.op);
    if (!op) return Outcome::unsupported_because("unknown op " + c.op);
    try {
      return call(*op, c);
    } catch (const c10::Error& e) {
      return Outcome::failure(classify_torch_message(op->family, e.what_without_backtrace()),
                              e.what_without_backtrace());
    } catch (const std::exception& e) {
      return Outcome::failure(classify_torch_message(op->family, e.what()), e.what());
    }
  }

 private:
  Outcome call(const OpInfo& op, const Case& c) {
    const auto& s = c.shapes;
    if (op.family == "elementwise" || op.family == "inplace" || op.family == "autograd" || op.family == "matmul" ||
        op.family == "fused" || op.family == "unfused")
      return run_program(op, c);
    if (op.family == "broadcast_shapes") {
      std::vector<at::Tensor> ts;
      for (const Shape& shape : s) ts.push_back(make(shape));
      return from_tensor(at::broadcast_tensors(ts).front());
    }
    if (op.family == "expand") return from_tensor(make(s[0]).expand(s[1]));
    if (op.family == "sum_to") {
      // at::sum_to indexes the source's sizes at negative positions when the target has more dims than the
      // source (undefined behaviour, docs/notes/sum-to-precondition.md), so that case is not called.
      if (s[1].size() > s[0].size())
        return Outcome::unsupported_because(
            "at::sum_to reads out of bounds when the target has more dims than the tensor; not called");
      return from_tensor(at::sum_to(make(s[0]), s[1]));
    }
    return Outcome::unsupported_because("no LibTorch call for op " + c.op);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_torch_oracle() { return std::make_unique<TorchOracle>(); }

}  // namespace bc
