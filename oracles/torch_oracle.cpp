#include "oracles/torch_oracle.h"

#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <c10/util/Logging.h>
#include <torch/version.h>

#include <map>
#include <optional>

#include "harness/operands.h"
#include "oracles/binding_table.h"
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
    if (p.number) {  // passed as an at::Scalar (number_forward); an undefined tensor holds its place
      bases.emplace_back();
      views.emplace_back();
      continue;
    }
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

// A number operand as the Python number it stands for: an int (exactly), a float or a bool.
at::Scalar number_scalar(const Number& n) {
  switch (n.kind) {
    case Number::Kind::boolean: return at::Scalar(n.i != 0);
    case Number::Kind::integer: return at::Scalar(static_cast<int64_t>(n.i));
    case Number::Kind::floating: break;
  }
  return at::Scalar(n.f);
}

// The 0-d tensor Python's binding makes of a number passed where a tensor goes (torch.add(x, 2.5, out=o)), and
// the Scalar overloads make of theirs: ATen's wrapped_scalar_tensor, which promotes by its category only.
at::Tensor wrapped(const Number& n) { return at::native::wrapped_scalar_tensor(number_scalar(n)); }

// The elements, exactly: an integer tensor's through int64, a floating one's through double (harness/values.h).
Values values_of(const at::Tensor& t) {
  if (at::isFloatingType(t.scalar_type()) || at::isComplexType(t.scalar_type())) {
    const at::Tensor d = t.to(at::kDouble).contiguous();
    return std::vector<double>(d.data_ptr<double>(), d.data_ptr<double>() + d.numel());
  }
  const at::Tensor i = t.to(at::kLong).contiguous();
  return Values(std::vector<int64_t>(i.data_ptr<int64_t>(), i.data_ptr<int64_t>() + i.numel()));
}

// What a row's forms receive: the case, its operands (a, b, z: the first three; t: all of them) and its scalars as
// the case writes them, an int (the default 1) or a float, which LibTorch checks differently.
struct Args {
  const Case& c;
  std::vector<at::Tensor>& t;
  at::Tensor& a;
  const at::Tensor& b;  // a unary op's b is a
  const at::Tensor& z;  // a binary op's z is b
  at::Scalar alpha, beta, value;
};
using Form = at::Tensor (*)(Args& x);
using OutForm = at::Tensor (*)(Args& x, at::Tensor& out);
using ShapeForm = Outcome (*)(const Case& c);

// LibTorch's binding of one op: its call, its in-place form's call (fill_ and zero_, in place alone, have only
// this), its out= form's call, or, for the shape rules, the shape computed with tensors of the case's shapes.
// LibTorch's autograd records each call's backward and its type promotion gives the dtype: nothing else to say.
struct TorchRow {
  Form forward = nullptr;
  Form inplace = nullptr;
  OutForm out = nullptr;
  ShapeForm shapes = nullptr;
};
TorchRow calls(Form forward, Form inplace = nullptr, OutForm out = nullptr) { return {forward, inplace, out, nullptr}; }
TorchRow in_place(Form inplace) { return {nullptr, inplace, nullptr, nullptr}; }
TorchRow shapes(ShapeForm f) { return {nullptr, nullptr, nullptr, f}; }

at::Tensor forward(Op op, const Case& c, std::vector<at::Tensor>& t);

// A graph case's program (harness/program.h), node by node with at:: ops; autograd records it as it goes.
at::Tensor forward_graph(Args& x) {
  if (x.c.program.empty()) throw std::invalid_argument("a graph case needs a program");
  std::vector<at::Tensor> values = x.t;
  for (const ProgramNode& node : x.c.program) {
    std::vector<at::Tensor> args;
    for (int a : node.args) args.push_back(values[static_cast<size_t>(a)]);
    values.push_back(forward(node.op, x.c, args));
  }
  return values.back();
}

// A reduction's arguments from the case: its dims (absent: no dim argument), keepdim and dtype=. LibTorch 1.13's
// prod takes one dim, an int (call() leaves out the cases it cannot say).
struct ReduceArgs {
  c10::optional<at::ScalarType> dtype;
  std::vector<int64_t> dims;
  bool given, keepdim;
  at::OptionalIntArrayRef dim() const { return given ? at::OptionalIntArrayRef(dims) : at::OptionalIntArrayRef(c10::nullopt); }
};
ReduceArgs reduce_args_of(const Case& c) {
  return {c.dtype_arg ? c10::optional<at::ScalarType>(scalar_type(*c.dtype_arg)) : c10::nullopt,
          c.dims.value_or(std::vector<int64_t>{}), c.dims.has_value(), c.keepdim};
}

// broadcast_shapes: tensors of the shapes broadcast together (a negative size fails making them, as in Python). No
// shapes: broadcast_tensors returns no tensor; torch.broadcast_shapes() answers torch.Size([]).
Outcome broadcast_shapes_of(const Case& c) {
  std::vector<at::Tensor> ts;
  for (const Shape& shape : c.shapes) ts.push_back(make(shape));
  const std::vector<at::Tensor> broadcast = at::broadcast_tensors(ts);
  if (broadcast.empty()) return Outcome::success({});
  return from_tensor(broadcast.front());
}

// at::sum_to indexes the source's sizes at negative positions when the target has more dims than the source
// (undefined behaviour, docs/notes/sum-to-precondition.md), so that case is not called.
Outcome sum_to_of(const Case& c) {
  if (c.shapes[1].size() > c.shapes[0].size())
    return Outcome::unsupported_because(
        "at::sum_to reads out of bounds when the target has more dims than the tensor; not called");
  return from_tensor(at::sum_to(make(c.shapes[0]), c.shapes[1]));
}

// The binding table: each op's LibTorch calls, in the op table's order.
const BindingTable<TorchRow>& bindings() {
  using C = BindingTable<TorchRow>::Cell;
  static const BindingTable<TorchRow> table("oracles/torch_oracle.cpp", std::vector<C>{
      {Op::add, calls([](Args& x) { return at::add(x.a, x.b, x.alpha); }, [](Args& x) { return x.a.add_(x.b, x.alpha); },
                      [](Args& x, at::Tensor& o) { return at::add_out(o, x.a, x.b, x.alpha); })},
      {Op::sub, calls([](Args& x) { return at::sub(x.a, x.b, x.alpha); }, [](Args& x) { return x.a.sub_(x.b, x.alpha); },
                      [](Args& x, at::Tensor& o) { return at::sub_out(o, x.a, x.b, x.alpha); })},
      {Op::mul, calls([](Args& x) { return at::mul(x.a, x.b); }, [](Args& x) { return x.a.mul_(x.b); },
                      [](Args& x, at::Tensor& o) { return at::mul_out(o, x.a, x.b); })},
      {Op::div, calls([](Args& x) { return at::div(x.a, x.b); }, [](Args& x) { return x.a.div_(x.b); },
                      [](Args& x, at::Tensor& o) { return at::div_out(o, x.a, x.b); })},
      {Op::pow, calls([](Args& x) { return at::pow(x.a, x.b); }, [](Args& x) { return x.a.pow_(x.b); },
                      [](Args& x, at::Tensor& o) { return at::pow_out(o, x.a, x.b); })},
      {Op::atan2, calls([](Args& x) { return at::atan2(x.a, x.b); }, [](Args& x) { return x.a.atan2_(x.b); },
                        [](Args& x, at::Tensor& o) { return at::atan2_out(o, x.a, x.b); })},
      {Op::fmod, calls([](Args& x) { return at::fmod(x.a, x.b); }, [](Args& x) { return x.a.fmod_(x.b); },
                       [](Args& x, at::Tensor& o) { return at::fmod_out(o, x.a, x.b); })},
      {Op::remainder, calls([](Args& x) { return at::remainder(x.a, x.b); }, [](Args& x) { return x.a.remainder_(x.b); },
                            [](Args& x, at::Tensor& o) { return at::remainder_out(o, x.a, x.b); })},
      {Op::maximum, calls([](Args& x) { return at::maximum(x.a, x.b); }, nullptr,
                          [](Args& x, at::Tensor& o) { return at::maximum_out(o, x.a, x.b); })},
      {Op::minimum, calls([](Args& x) { return at::minimum(x.a, x.b); }, nullptr,
                          [](Args& x, at::Tensor& o) { return at::minimum_out(o, x.a, x.b); })},
      {Op::eq, calls([](Args& x) { return at::eq(x.a, x.b); }, [](Args& x) { return x.a.eq_(x.b); },
                     [](Args& x, at::Tensor& o) { return at::eq_out(o, x.a, x.b); })},
      {Op::ne, calls([](Args& x) { return at::ne(x.a, x.b); }, [](Args& x) { return x.a.ne_(x.b); },
                     [](Args& x, at::Tensor& o) { return at::ne_out(o, x.a, x.b); })},
      {Op::lt, calls([](Args& x) { return at::lt(x.a, x.b); }, [](Args& x) { return x.a.lt_(x.b); },
                     [](Args& x, at::Tensor& o) { return at::lt_out(o, x.a, x.b); })},
      {Op::le, calls([](Args& x) { return at::le(x.a, x.b); }, [](Args& x) { return x.a.le_(x.b); },
                     [](Args& x, at::Tensor& o) { return at::le_out(o, x.a, x.b); })},
      {Op::gt, calls([](Args& x) { return at::gt(x.a, x.b); }, [](Args& x) { return x.a.gt_(x.b); },
                     [](Args& x, at::Tensor& o) { return at::gt_out(o, x.a, x.b); })},
      {Op::ge, calls([](Args& x) { return at::ge(x.a, x.b); }, [](Args& x) { return x.a.ge_(x.b); },
                     [](Args& x, at::Tensor& o) { return at::ge_out(o, x.a, x.b); })},
      {Op::hypot, calls([](Args& x) { return at::hypot(x.a, x.b); }, [](Args& x) { return x.a.hypot_(x.b); },
                        [](Args& x, at::Tensor& o) { return at::hypot_out(o, x.a, x.b); })},
      {Op::neg, calls([](Args& x) { return at::neg(x.a); })},
      {Op::abs, calls([](Args& x) { return at::abs(x.a); })},
      {Op::sqrt, calls([](Args& x) { return at::sqrt(x.a); })},
      {Op::exp, calls([](Args& x) { return at::exp(x.a); })},
      {Op::log, calls([](Args& x) { return at::log(x.a); })},
      {Op::sign, calls([](Args& x) { return at::sign(x.a); })},
      {Op::reciprocal, calls([](Args& x) { return at::reciprocal(x.a); })},
      {Op::lerp, calls([](Args& x) { return at::lerp(x.a, x.b, x.z); }, [](Args& x) { return x.a.lerp_(x.b, x.z); })},
      {Op::where, calls([](Args& x) { return at::where(x.a, x.b, x.z); })},
      {Op::addcmul, calls([](Args& x) { return at::addcmul(x.a, x.b, x.z, x.value); },
                          [](Args& x) { return x.a.addcmul_(x.b, x.z, x.value); })},
      {Op::addcdiv, calls([](Args& x) { return at::addcdiv(x.a, x.b, x.z, x.value); },
                          [](Args& x) { return x.a.addcdiv_(x.b, x.z, x.value); })},
      {Op::unfused_addcmul, calls([](Args& x) { return at::add(x.a, at::mul(x.b, x.z), x.value); },
                                  [](Args& x) { return x.a.add_(at::mul(x.b, x.z), x.value); })},
      {Op::unfused_addcdiv, calls([](Args& x) { return at::add(x.a, at::div(x.b, x.z), x.value); },
                                  [](Args& x) { return x.a.add_(at::div(x.b, x.z), x.value); })},
      {Op::broadcast_shapes, shapes(broadcast_shapes_of)},
      {Op::expand, shapes([](const Case& c) { return from_tensor(make(c.shapes[0]).expand(c.shapes[1])); })},
      {Op::sum_to, shapes(sum_to_of)},
      {Op::matmul, calls([](Args& x) { return at::matmul(x.a, x.b); })},
      {Op::mm, calls([](Args& x) { return at::mm(x.a, x.b); })},
      {Op::bmm, calls([](Args& x) { return at::bmm(x.a, x.b); })},
      {Op::mv, calls([](Args& x) { return at::mv(x.a, x.b); })},
      {Op::dot, calls([](Args& x) { return at::dot(x.a, x.b); })},
      {Op::outer, calls([](Args& x) { return at::outer(x.a, x.b); })},
      {Op::addmm, calls([](Args& x) { return at::addmm(x.a, x.b, x.z, x.beta, x.alpha); },
                        [](Args& x) { return x.a.addmm_(x.b, x.z, x.beta, x.alpha); })},
      {Op::addmv, calls([](Args& x) { return at::addmv(x.a, x.b, x.z, x.beta, x.alpha); },
                        [](Args& x) { return x.a.addmv_(x.b, x.z, x.beta, x.alpha); })},
      {Op::addr, calls([](Args& x) { return at::addr(x.a, x.b, x.z, x.beta, x.alpha); },
                       [](Args& x) { return x.a.addr_(x.b, x.z, x.beta, x.alpha); })},
      {Op::baddbmm, calls([](Args& x) { return at::baddbmm(x.a, x.b, x.z, x.beta, x.alpha); },
                          [](Args& x) { return x.a.baddbmm_(x.b, x.z, x.beta, x.alpha); })},
      {Op::addbmm, calls([](Args& x) { return at::addbmm(x.a, x.b, x.z, x.beta, x.alpha); },
                         [](Args& x) { return x.a.addbmm_(x.b, x.z, x.beta, x.alpha); })},
      {Op::diamond, calls([](Args& x) { return at::mul(at::add(x.a, x.b), x.a); })},
      {Op::dist, calls([](Args& x) { return at::dist(x.a, x.b); })},
      {Op::graph, calls(forward_graph)},
      {Op::floor_divide, calls([](Args& x) { return at::floor_divide(x.a, x.b); },
                               [](Args& x) { return x.a.floor_divide_(x.b); },
                               [](Args& x, at::Tensor& o) { return at::floor_divide_out(o, x.a, x.b); })},
      {Op::sum, calls([](Args& x) {
         const ReduceArgs r = reduce_args_of(x.c);
         return at::sum(x.a, r.dim(), r.keepdim, r.dtype);
       })},
      {Op::mean, calls([](Args& x) {
         const ReduceArgs r = reduce_args_of(x.c);
         return at::mean(x.a, r.dim(), r.keepdim, r.dtype);
       })},
      {Op::amax, calls([](Args& x) { return at::amax(x.a, reduce_args_of(x.c).dims, x.c.keepdim); })},
      {Op::amin, calls([](Args& x) { return at::amin(x.a, reduce_args_of(x.c).dims, x.c.keepdim); })},
      {Op::prod, calls([](Args& x) {
         const ReduceArgs r = reduce_args_of(x.c);
         return r.given ? at::prod(x.a, r.dims.at(0), r.keepdim, r.dtype) : at::prod(x.a, r.dtype);
       })},
      {Op::fill_, in_place([](Args& x) { return x.a.fill_(x.value); })},
      {Op::zero_, in_place([](Args& x) { return x.a.zero_(); })},
      {Op::bitwise_and, calls([](Args& x) { return at::bitwise_and(x.a, x.b); }, [](Args& x) { return x.a.bitwise_and_(x.b); },
                              [](Args& x, at::Tensor& o) { return at::bitwise_and_out(o, x.a, x.b); })},
      {Op::bitwise_or, calls([](Args& x) { return at::bitwise_or(x.a, x.b); }, [](Args& x) { return x.a.bitwise_or_(x.b); },
                             [](Args& x, at::Tensor& o) { return at::bitwise_or_out(o, x.a, x.b); })},
      {Op::bitwise_xor, calls([](Args& x) { return at::bitwise_xor(x.a, x.b); }, [](Args& x) { return x.a.bitwise_xor_(x.b); },
                              [](Args& x, at::Tensor& o) { return at::bitwise_xor_out(o, x.a, x.b); })},
      {Op::bitwise_left_shift, calls([](Args& x) { return at::bitwise_left_shift(x.a, x.b); }, [](Args& x) { return x.a.bitwise_left_shift_(x.b); },
                                     [](Args& x, at::Tensor& o) { return at::bitwise_left_shift_out(o, x.a, x.b); })},
      {Op::bitwise_right_shift, calls([](Args& x) { return at::bitwise_right_shift(x.a, x.b); }, [](Args& x) { return x.a.bitwise_right_shift_(x.b); },
                                      [](Args& x, at::Tensor& o) { return at::bitwise_right_shift_out(o, x.a, x.b); })},
      {Op::logical_and, calls([](Args& x) { return at::logical_and(x.a, x.b); }, [](Args& x) { return x.a.logical_and_(x.b); },
                              [](Args& x, at::Tensor& o) { return at::logical_and_out(o, x.a, x.b); })},
      {Op::logical_or, calls([](Args& x) { return at::logical_or(x.a, x.b); }, [](Args& x) { return x.a.logical_or_(x.b); },
                             [](Args& x, at::Tensor& o) { return at::logical_or_out(o, x.a, x.b); })},
      {Op::logical_xor, calls([](Args& x) { return at::logical_xor(x.a, x.b); }, [](Args& x) { return x.a.logical_xor_(x.b); },
                              [](Args& x, at::Tensor& o) { return at::logical_xor_out(o, x.a, x.b); })},
      {Op::logaddexp, calls([](Args& x) { return at::logaddexp(x.a, x.b); }, nullptr,  // LibTorch 1.13 has no logaddexp_
                            [](Args& x, at::Tensor& o) { return at::logaddexp_out(o, x.a, x.b); })},
  });
  return table;
}

Args args_of(const Case& c, std::vector<at::Tensor>& t) {
  const at::Tensor& b = t.size() > 1 ? t[1] : t[0];
  return Args{c, t, t[0], b, t.size() > 2 ? t[2] : b, torch_scalar(scalar_of(c, "alpha")),
              torch_scalar(scalar_of(c, "beta")), torch_scalar(scalar_of(c, "value"))};
}

// The op's LibTorch call on the case's operands: its row's forward, or its in-place form's.
at::Tensor forward(Op op, const Case& c, std::vector<at::Tensor>& t) {
  const TorchRow* row = bindings().row(op);
  const Form form = !row ? nullptr : is_inplace(op) ? row->inplace : row->forward;
  if (!form) throw std::logic_error(std::string("the LibTorch oracle has no tensor program for ") + to_string(op));
  Args x = args_of(c, t);
  return form(x);
}

// LibTorch's Scalar overloads, the calls a C++ user makes with a number as the second operand (at::add(t, Scalar),
// t.mul_(Scalar)): out of place and in place, by the out-of-place op. An op without a row has none (atan2, maximum,
// minimum, hypot: Python refuses a number for them too) and answers unsupported.
using ScalarForm = at::Tensor (*)(Args& x, const at::Scalar& s);
struct ScalarRow {
  Op op;
  ScalarForm forward, inplace;
};
const std::vector<ScalarRow>& scalar_bindings() {
  static const std::vector<ScalarRow> rows = {
      {Op::add, [](Args& x, const at::Scalar& s) { return at::add(x.a, s, x.alpha); },
       [](Args& x, const at::Scalar& s) { return x.a.add_(s, x.alpha); }},
      {Op::sub, [](Args& x, const at::Scalar& s) { return at::sub(x.a, s, x.alpha); },
       [](Args& x, const at::Scalar& s) { return x.a.sub_(s, x.alpha); }},
      {Op::mul, [](Args& x, const at::Scalar& s) { return at::mul(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.mul_(s); }},
      {Op::div, [](Args& x, const at::Scalar& s) { return at::div(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.div_(s); }},
      {Op::pow, [](Args& x, const at::Scalar& s) { return at::pow(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.pow_(s); }},
      {Op::fmod, [](Args& x, const at::Scalar& s) { return at::fmod(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.fmod_(s); }},
      {Op::remainder, [](Args& x, const at::Scalar& s) { return at::remainder(x.a, s); },
       [](Args& x, const at::Scalar& s) { return x.a.remainder_(s); }},
      {Op::eq, [](Args& x, const at::Scalar& s) { return at::eq(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.eq_(s); }},
      {Op::ne, [](Args& x, const at::Scalar& s) { return at::ne(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.ne_(s); }},
      {Op::lt, [](Args& x, const at::Scalar& s) { return at::lt(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.lt_(s); }},
      {Op::le, [](Args& x, const at::Scalar& s) { return at::le(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.le_(s); }},
      {Op::gt, [](Args& x, const at::Scalar& s) { return at::gt(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.gt_(s); }},
      {Op::ge, [](Args& x, const at::Scalar& s) { return at::ge(x.a, s); }, [](Args& x, const at::Scalar& s) { return x.a.ge_(s); }},
      {Op::floor_divide, [](Args& x, const at::Scalar& s) { return at::floor_divide(x.a, s); },
       [](Args& x, const at::Scalar& s) { return x.a.floor_divide_(s); }},
  };
  return rows;
}

// The op with a number as its second operand (or where's second or third, at::where(c, t, Scalar) and its
// siblings), through the Scalar overloads; nullopt where LibTorch has none. A number in an out= form goes as the
// Scalar overloads pass it on: a wrapped 0-d tensor (run_out_form), except pow's, a kernel of its own.
std::optional<at::Tensor> number_forward(Op op, const Case& c, std::vector<at::Tensor>& t) {
  Args x = args_of(c, t);
  if (op == Op::where) {
    const Number *p = number_of(c, 1), *q = number_of(c, 2);
    if (p && q) return at::where(t[0], number_scalar(*p), number_scalar(*q));
    if (p) return at::where(t[0], number_scalar(*p), t[2]);
    return at::where(t[0], t[1], number_scalar(*q));
  }
  for (const ScalarRow& row : scalar_bindings())
    if (row.op == out_of_place(op))
      return (is_inplace(op) ? row.inplace : row.forward)(x, number_scalar(*number_of(c, 1)));
  return std::nullopt;
}

// The op's out= form (at::add_out, ...) into `out`; only the out-of-place pointwise binary ops have one here.
at::Tensor forward_out(Op op, const Case& c, at::Tensor& out, std::vector<at::Tensor>& t) {
  const TorchRow* row = bindings().row(op);
  if (!row || !row->out || is_inplace(op))
    throw std::logic_error(std::string("the LibTorch oracle has no out= form for ") + to_string(op));
  Args x = args_of(c, t);
  return row->out(x, out);
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
  const Number* n = number_of(c, 1);
  if (n && op == Op::pow) {  // pow(Tensor, Scalar) is a kernel of its own
    at::pow_out(out, t[0], number_scalar(*n));
  } else {
    if (n) t[1] = wrapped(*n);
    forward_out(op, c, out, t);
  }
  Outcome o = from_tensor(out);
  if (c.values) o.values = values_of(out);
  o.warnings = recorded_warnings().texts;
  return o;
}

// The value and gradient program of docs/notes/gradient-cases.md, with LibTorch's real autograd.
Outcome run_program(Op op, const Case& c) {
  if (c.out) return run_out_form(op, c);
  std::vector<at::Tensor> t = build_operands(c);
  std::optional<at::Tensor> with_number;
  if (has_numbers(c) && !(with_number = number_forward(op, c, t)))
    return Outcome::unsupported_because(std::string("LibTorch 1.13 has no Scalar overload of ") + to_string(op));
  at::Tensor r = with_number ? *with_number : forward(op, c, t);
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
    bindings().check();
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
    switch (op.family) {
      case Family::elementwise: case Family::inplace: case Family::autograd: case Family::matmul:
      case Family::fused: case Family::unfused: case Family::reduction: case Family::fill:
        return run_program(op.op, c);
      case Family::reduce_dims:
        if (op.reduction->one_dim && ((c.dims && c.dims->size() != 1) || (!c.dims && c.keepdim)))
          return Outcome::unsupported_because(std::string(op.name) + " takes one dim (an int) in LibTorch 1.13, "
                                              "not a list; without a dim it has no keepdim");
        return run_program(op.op, c);
      case Family::broadcast_shapes: case Family::expand: case Family::sum_to: {
        const TorchRow* row = bindings().row(op.op);
        if (!row || !row->shapes) return Outcome::unsupported_because(bindings().reason(op.op));
        return row->shapes(c);
      }
    }
    return Outcome::unsupported_because(std::string("no LibTorch call for op ") + op.name);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_torch_oracle() { return std::make_unique<TorchOracle>(); }
const BindingProblems& torch_binding_problems() { return bindings().problems(); }

}  // namespace bc
