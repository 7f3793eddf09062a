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
    case at::kChar: return "int8";
    case at::kByte: return "uint8";
    case at::kShort: return "int16";
    case at::kInt: return "int32";
    case at::kHalf: return "float16";
    case at::kBFloat16: return "bfloat16";
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
    case DType::int8: return at::kChar;
    case DType::uint8: return at::kByte;
    case DType::int16: return at::kShort;
    case DType::int32: return at::kInt;
    case DType::float16: return at::kHalf;
    case DType::bfloat16: return at::kBFloat16;
  }
  return at::kFloat;
}

// A fresh contiguous tensor holding `values` exactly (they are in the dtype: harness/operands.h).
at::Tensor filled(const Shape& shape, DType dtype, const Values& values) {
  at::Tensor t = at::empty(shape, scalar_type(dtype));
  const int64_t n = t.numel();
  for (int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<size_t>(k);
    switch (dtype) {
      case DType::bool_: t.data_ptr<bool>()[k] = values.ints()[i] != 0; break;
      case DType::int64: t.data_ptr<int64_t>()[k] = values.ints()[i]; break;
      case DType::float32: t.data_ptr<float>()[k] = static_cast<float>(values.floats()[i]); break;
      case DType::float64: t.data_ptr<double>()[k] = values.floats()[i]; break;
      // The values are already in range (harness/operands.h converts them to the dtype), so these casts are exact.
      case DType::int8: t.data_ptr<int8_t>()[k] = static_cast<int8_t>(values.ints()[i]); break;
      case DType::uint8: t.data_ptr<uint8_t>()[k] = static_cast<uint8_t>(values.ints()[i]); break;
      case DType::int16: t.data_ptr<int16_t>()[k] = static_cast<int16_t>(values.ints()[i]); break;
      case DType::int32: t.data_ptr<int32_t>()[k] = static_cast<int32_t>(values.ints()[i]); break;
      case DType::float16: t.data_ptr<at::Half>()[k] = static_cast<float>(values.floats()[i]); break;
      case DType::bfloat16: t.data_ptr<at::BFloat16>()[k] = static_cast<float>(values.floats()[i]); break;
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

// A case's scalar as the Python value it stands for: an int or a float.
at::Scalar torch_scalar(const Scalar& s) {
  return s.integral ? at::Scalar(static_cast<int64_t>(s.value)) : at::Scalar(s.value);
}

// The elements, exactly: an integer tensor's through int64, a floating one's through double (harness/values.h).
Values values_of(const at::Tensor& t) {
  if (at::isFloatingType(t.scalar_type()) || at::isComplexType(t.scalar_type())) {
    const at::Tensor d = t.to(at::kDouble).contiguous();
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
  }
  const at::Tensor i = t.to(at::kLong).contiguous();
  return Values(std::vector<int64_t>(i.data_ptr<int64_t>(), i.data_ptr<int64_t>() + i.numel()));
}

at::Tensor forward(Op op, const Case& c, std::vector<at::Tensor>& t);

// A graph case's program (harness/program.h), node by node with at:: ops; autograd records it as it goes.
at::Tensor forward_graph(const Case& c, const std::vector<at::Tensor>& inputs) {
  if (c.program.empty()) throw std::invalid_argument("a graph case needs a program");
  std::vector<at::Tensor> values = inputs;
  for (const ProgramNode& node : c.program) {
    std::vector<at::Tensor> args;
    for (int a : node.args) args.push_back(values[static_cast<size_t>(a)]);
    values.push_back(forward(node.op, c, args));
  }
  return values.back();
}

// A reduction with the case's dims (absent: no dim argument), keepdim and dtype=. LibTorch 1.13's prod takes one
// dim, an int (call() leaves out the cases it cannot say).
at::Tensor reduce(Op op, const Case& c, const at::Tensor& a) {
  const c10::optional<at::ScalarType> dtype =
      c.dtype_arg ? c10::optional<at::ScalarType>(scalar_type(*c.dtype_arg)) : c10::nullopt;
  const std::vector<int64_t> dims = c.dims.value_or(std::vector<int64_t>{});
  const at::OptionalIntArrayRef dim = c.dims ? at::OptionalIntArrayRef(dims) : at::OptionalIntArrayRef(c10::nullopt);
  if (op == Op::sum) return at::sum(a, dim, c.keepdim, dtype);
  if (op == Op::mean) return at::mean(a, dim, c.keepdim, dtype);
  if (op == Op::amax) return at::amax(a, dims, c.keepdim);
  if (op == Op::amin) return at::amin(a, dims, c.keepdim);
  return c.dims ? at::prod(a, dims.at(0), c.keepdim, dtype) : at::prod(a, dtype);
}

// The op's LibTorch call on the case's operands; exhaustive over the op table (a shape-only op has no program).
at::Tensor forward(Op op, const Case& c, std::vector<at::Tensor>& t) {
  // Scalars as the case writes them: an int (the default 1) or a float, which LibTorch checks differently.
  const at::Scalar alpha = torch_scalar(scalar_of(c, "alpha")), beta = torch_scalar(scalar_of(c, "beta")),
                   value = torch_scalar(scalar_of(c, "value"));
  at::Tensor& a = t[0];
  const at::Tensor& b = t.size() > 1 ? t[1] : t[0];  // a unary op has one operand
  switch (op) {
    case Op::add: return at::add(a, b, alpha);
    case Op::sub: return at::sub(a, b, alpha);
    case Op::mul: return at::mul(a, b);
    case Op::div: return at::div(a, b);
    case Op::pow: return at::pow(a, b);
    case Op::atan2: return at::atan2(a, b);
    case Op::fmod: return at::fmod(a, b);
    case Op::remainder: return at::remainder(a, b);
    case Op::maximum: return at::maximum(a, b);
    case Op::minimum: return at::minimum(a, b);
    case Op::eq: return at::eq(a, b);
    case Op::ne: return at::ne(a, b);
    case Op::lt: return at::lt(a, b);
    case Op::le: return at::le(a, b);
    case Op::gt: return at::gt(a, b);
    case Op::ge: return at::ge(a, b);
    case Op::hypot: return at::hypot(a, b);
    case Op::add_: return a.add_(b, alpha);
    case Op::sub_: return a.sub_(b, alpha);
    case Op::mul_: return a.mul_(b);
    case Op::div_: return a.div_(b);
    case Op::pow_: return a.pow_(b);
    case Op::atan2_: return a.atan2_(b);
    case Op::fmod_: return a.fmod_(b);
    case Op::remainder_: return a.remainder_(b);
    case Op::eq_: return a.eq_(b);
    case Op::ne_: return a.ne_(b);
    case Op::lt_: return a.lt_(b);
    case Op::le_: return a.le_(b);
    case Op::gt_: return a.gt_(b);
    case Op::ge_: return a.ge_(b);
    case Op::hypot_: return a.hypot_(b);
    case Op::neg: return at::neg(a);
    case Op::abs: return at::abs(a);
    case Op::sqrt: return at::sqrt(a);
    case Op::exp: return at::exp(a);
    case Op::log: return at::log(a);
    case Op::sign: return at::sign(a);
    case Op::reciprocal: return at::reciprocal(a);
    case Op::lerp: return at::lerp(a, b, t[2]);
    case Op::lerp_: return a.lerp_(b, t[2]);
    case Op::where: return at::where(a, b, t[2]);
    case Op::addcmul: return at::addcmul(a, b, t[2], value);
    case Op::addcdiv: return at::addcdiv(a, b, t[2], value);
    case Op::addcmul_: return a.addcmul_(b, t[2], value);
    case Op::addcdiv_: return a.addcdiv_(b, t[2], value);
    case Op::unfused_addcmul: return at::add(a, at::mul(b, t[2]), value);
    case Op::unfused_addcdiv: return at::add(a, at::div(b, t[2]), value);
    case Op::unfused_addcmul_: return a.add_(at::mul(b, t[2]), value);
    case Op::unfused_addcdiv_: return a.add_(at::div(b, t[2]), value);
    case Op::matmul: return at::matmul(a, b);
    case Op::mm: return at::mm(a, b);
    case Op::bmm: return at::bmm(a, b);
    case Op::mv: return at::mv(a, b);
    case Op::dot: return at::dot(a, b);
    case Op::outer: return at::outer(a, b);
    case Op::addmm: return at::addmm(a, b, t[2], beta, alpha);
    case Op::addmv: return at::addmv(a, b, t[2], beta, alpha);
    case Op::addr: return at::addr(a, b, t[2], beta, alpha);
    case Op::baddbmm: return at::baddbmm(a, b, t[2], beta, alpha);
    case Op::addbmm: return at::addbmm(a, b, t[2], beta, alpha);
    case Op::addmm_: return a.addmm_(b, t[2], beta, alpha);
    case Op::addmv_: return a.addmv_(b, t[2], beta, alpha);
    case Op::addr_: return a.addr_(b, t[2], beta, alpha);
    case Op::baddbmm_: return a.baddbmm_(b, t[2], beta, alpha);
    case Op::addbmm_: return a.addbmm_(b, t[2], beta, alpha);
    case Op::diamond: return at::mul(at::add(a, b), a);
    case Op::dist: return at::dist(a, b);
    case Op::graph: return forward_graph(c, t);
    case Op::floor_divide: return at::floor_divide(a, b);
    case Op::floor_divide_: return a.floor_divide_(b);
    case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod: return reduce(op, c, a);
    case Op::fill_: return a.fill_(value);
    case Op::zero_: return a.zero_();
    case Op::broadcast_shapes: case Op::expand: case Op::sum_to: break;
  }
  throw std::logic_error(std::string("the LibTorch oracle has no tensor program for ") + to_string(op));
}

// The op's out= form (at::add_out, ...) into `out`; only the out-of-place pointwise binary ops have one here.
at::Tensor forward_out(Op op, const Case& c, at::Tensor& out, const at::Tensor& a, const at::Tensor& b) {
  const at::Scalar alpha = torch_scalar(scalar_of(c, "alpha"));
  switch (op) {
    case Op::add: return at::add_out(out, a, b, alpha);
    case Op::sub: return at::sub_out(out, a, b, alpha);
    case Op::mul: return at::mul_out(out, a, b);
    case Op::div: return at::div_out(out, a, b);
    case Op::pow: return at::pow_out(out, a, b);
    case Op::atan2: return at::atan2_out(out, a, b);
    case Op::fmod: return at::fmod_out(out, a, b);
    case Op::remainder: return at::remainder_out(out, a, b);
    case Op::maximum: return at::maximum_out(out, a, b);
    case Op::minimum: return at::minimum_out(out, a, b);
    case Op::eq: return at::eq_out(out, a, b);
    case Op::ne: return at::ne_out(out, a, b);
    case Op::lt: return at::lt_out(out, a, b);
    case Op::le: return at::le_out(out, a, b);
    case Op::gt: return at::gt_out(out, a, b);
    case Op::ge: return at::ge_out(out, a, b);
    case Op::hypot: return at::hypot_out(out, a, b);
    case Op::floor_divide: return at::floor_divide_out(out, a, b);
    case Op::add_: case Op::sub_: case Op::mul_: case Op::div_: case Op::pow_: case Op::atan2_: case Op::fmod_:
    case Op::remainder_: case Op::eq_: case Op::ne_: case Op::lt_: case Op::le_: case Op::gt_: case Op::ge_:
    case Op::hypot_: case Op::neg: case Op::abs: case Op::sqrt: case Op::exp: case Op::log: case Op::sign:
    case Op::reciprocal: case Op::lerp: case Op::lerp_: case Op::where: case Op::addcmul: case Op::addcdiv:
    case Op::addcmul_: case Op::addcdiv_: case Op::unfused_addcmul: case Op::unfused_addcdiv:
    case Op::unfused_addcmul_: case Op::unfused_addcdiv_: case Op::broadcast_shapes: case Op::expand:
    case Op::sum_to: case Op::matmul: case Op::mm: case Op::bmm: case Op::mv: case Op::dot: case Op::outer:
    case Op::addmm: case Op::addmv: case Op::addr: case Op::baddbmm: case Op::addbmm: case Op::addmm_:
    case Op::addmv_: case Op::addr_: case Op::baddbmm_: case Op::addbmm_: case Op::diamond: case Op::dist:
    case Op::floor_divide_: case Op::graph: case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod:
    case Op::fill_: case Op::zero_:
      break;
  }
  throw std::logic_error(std::string("the LibTorch oracle has no out= form for ") + to_string(op));
}

// LibTorch's warnings go to stderr by default. This handler keeps their texts instead: an out= case's outcome
// records them (the resize of an out of another shape). Elsewhere they are dropped: the one other warning the runs
// meet (the same resize text) comes from addmv's empty-matrix shortcut, whose wrong result shape the outcomes
// already show (torch-blas-empty-shortcut).
class RecordedWarnings : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation&, const std::string& message, const bool) override {
    texts.push_back(message);
  }
  std::vector<std::string> texts;
};
RecordedWarnings& recorded_warnings() {
  static RecordedWarnings handler;
  return handler;
}

// The out= program: a fresh zero-filled out of the case's shape and dtype, the op's _out call, no backward.
Outcome run_out_form(Op op, const Case& c) {
  std::vector<at::Tensor> t = build_operands(c);
  at::Tensor out = at::zeros(c.out->shape, scalar_type(c.out->dtype));
  recorded_warnings().texts.clear();
  forward_out(op, c, out, t[0], t[1]);
  Outcome o = from_tensor(out);
  if (c.values) o.values = values_of(out);
  o.warnings = recorded_warnings().texts;
  return o;
}

// The value and gradient program of docs/notes/gradient-cases.md, with LibTorch's real autograd.
Outcome run_program(Op op, const Case& c) {
  if (c.out) return run_out_form(op, c);
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


class TorchOracle : public Oracle {
 public:
  TorchOracle() {
    c10::Warning::set_warning_handler(&recorded_warnings());
    at::set_num_threads(1);
    // c10::Error walks the C++ stack for a backtrace on every failed check (about 1 ms here, most of a failing
    // case's cost). The oracle reports what_without_backtrace() only, so it asks for no backtrace at all.
    c10::SetStackTraceFetcher([] { return std::string(); });
  }
  std::string name() const override { return "torch"; }
  std::string version() const override { return std::string("LibTorch ") + TORCH_VERSION; }

  Outcome run(const Case& c) override {
    const OpEntry* op = &entry(c.op);
    recorded_warnings().texts.clear();
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
  Outcome call(const OpEntry& op, const Case& c) {
    const auto& s = c.shapes;
    switch (op.family) {
      case Family::elementwise: case Family::inplace: case Family::autograd: case Family::matmul:
      case Family::fused: case Family::unfused: case Family::reduction: case Family::fill:
        return run_program(op.op, c);
      case Family::reduce_dims:
        if (op.reduction->one_dim && ((c.dims && c.dims->size() != 1) || (!c.dims && c.keepdim)))
          return Outcome::unsupported_because(std::string(op.name) + " takes one dim (an int) in LibTorch 1.13, "
                                              "not a list; without a dim it has no keepdim");
        return run_program(op.op, c);
      case Family::broadcast_shapes: {
        std::vector<at::Tensor> ts;
        for (const Shape& shape : s) ts.push_back(make(shape));  // a negative size fails here, as in Python
        const std::vector<at::Tensor> broadcast = at::broadcast_tensors(ts);
        // No shapes: broadcast_tensors returns no tensor; torch.broadcast_shapes() answers torch.Size([]).
        if (broadcast.empty()) return Outcome::success({});
        return from_tensor(broadcast.front());
      }
      case Family::expand: return from_tensor(make(s[0]).expand(s[1]));
      case Family::sum_to:
        // at::sum_to indexes the source's sizes at negative positions when the target has more dims than the
        // source (undefined behaviour, docs/notes/sum-to-precondition.md), so that case is not called.
        if (s[1].size() > s[0].size())
          return Outcome::unsupported_because(
              "at::sum_to reads out of bounds when the target has more dims than the tensor; not called");
        return from_tensor(at::sum_to(make(s[0]), s[1]));
    }
    return Outcome::unsupported_because(std::string("no LibTorch call for op ") + op.name);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_torch_oracle() { return std::make_unique<TorchOracle>(); }

}  // namespace bc
