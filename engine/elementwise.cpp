#include "engine/elementwise.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>

#include "engine/broadcast.h"
#include "engine/error_texts.h"
#include "engine/inplace.h"
#include "engine/scalar_overflow.h"

namespace bc {
namespace {

const BinaryRule& info(Op op) {
  const BinaryRule* rule = binary_rule(op);
  if (!rule) throw std::logic_error(std::string("engine: ") + to_string(op) + " is not a pointwise binary op");
  return *rule;
}

// The dtype an op computes in, the dtype of its result, or the error LibTorch raises for these dtypes.
struct Types {
  DType compute, result;
};

// sub's bool check, which LibTorch makes before anything else.
std::optional<Error> sub_check(Op op, const Tensor& a, const Tensor& b) {
  if (op == Op::sub && a.dtype() == DType::bool_ && b.dtype() == DType::bool_)
    return make_error(ErrorText::sub_two_bools);
  if (op == Op::sub && (a.dtype() == DType::bool_ || b.dtype() == DType::bool_))
    return make_error(ErrorText::sub_bool);
  return std::nullopt;
}

// pow with a number exponent is LibTorch's pow(Tensor, Scalar), which refuses an int below 0 for an integer or
// bool base before anything else (a tensor exponent is not checked).
std::optional<Error> pow_check(Op op, const Tensor& a, const Tensor& b) {
  if (op != Op::pow || !b.is_wrapped_number() || category(a.dtype()) == Category::floating) return std::nullopt;
  const Value v = b.read(b.offset());
  if (v.is_float || b.dtype() == DType::bool_ || v.i >= 0) return std::nullopt;
  return make_error(ErrorText::pow_negative_integer);
}

// Then pow(Tensor, Scalar)'s kernel converts the exponent to the computation's type with c10's check, except for
// float32 and float64, which take it as a double (PowKernel.cpp): int8 ** 300 and float16 ** 1e10 are refused.
std::optional<Error> pow_exponent_check(Op op, DType compute, const Tensor& b) {
  if (op != Op::pow || !b.is_wrapped_number() || compute == DType::float32 || compute == DType::float64)
    return std::nullopt;
  const Value v = b.read(b.offset());
  return scalar_overflow(v.as_double(), !v.is_float, compute);
}

// alpha's check, which LibTorch makes after it has computed the result type (and, in place, checked the cast).
// Then the kernel converts alpha to the compute type with c10's range check (int8's alpha=300 is refused).
std::optional<Error> alpha_check(Op op, DType compute, Scalar alpha) {
  if ((op == Op::add || op == Op::sub) && category(compute) != Category::floating && !alpha.integral)
    return make_error(ErrorText::integral_scalar, {"alpha"});
  if (op == Op::add || op == Op::sub) return scalar_overflow(alpha.value, alpha.integral, compute);
  return std::nullopt;
}

Types types_for(Op op, const Tensor& a, const Tensor& b) {
  DType compute = result_type({operand_of(a), operand_of(b)});
  const BinaryRule& rule = info(op);
  if (rule.float_only && category(compute) != Category::floating) compute = DType::float32;
  return Types{compute, rule.comparison ? DType::bool_ : compute};
}

bool refused(Refuses refuses, DType compute) {
  const Category c = category(compute);
  switch (refuses) {
    case Refuses::none: return false;
    case Refuses::bool_: return c == Category::boolean;
    case Refuses::bool_integer: return c != Category::floating;
    case Refuses::floating: return c == Category::floating;
    case Refuses::bool_floating: return c != Category::integer;
  }
  return false;
}

// Where LibTorch has no kernel for a dtype, its message names the kernel. The kernel is chosen after the result
// type is known and, in place, after the cast to self's dtype was checked.
std::optional<Error> kernel_refusal(Op op, DType compute) {
  const BinaryRule& rule = info(op);
  if (compute == DType::float16 && half_kernel(op))
    return make_error(ErrorText::not_implemented, {half_kernel(op), torch_name(compute)});
  if (rule.kernel && refused(rule.refuses, compute))
    return make_error(ErrorText::not_implemented, {rule.kernel, torch_name(compute)});
  return std::nullopt;
}

// pow(Tensor, Scalar)'s CPU kernel (PowKernel.cpp, pow_tensor_scalar_kernel) for float, double and bfloat16: an
// exponent of 0.5 is sqrt, -0.5 rsqrt (1 / sqrt), -1 the reciprocal; for float and double also 2, 3 and -2 are
// products (x * x * x rounds twice). sqrt differs from std::pow at -0.0 (sqrt(-0.0) is -0.0, pow gives 0.0) and at
// -inf (NaN, pow gives inf). float16 and every other exponent go through std::pow.
template <class T>
std::optional<T> pow_by_number(T x, double e, bool products) {
  if (e == 0.5) return std::sqrt(x);
  if (e == -0.5) return T(1) / std::sqrt(x);
  if (e == -1) return T(1) / x;
  if (!products) return std::nullopt;
  if (e == 2) return x * x;
  if (e == 3) return x * x * x;
  if (e == -2) return T(1) / (x * x);
  return std::nullopt;
}

std::optional<Value> pow_by_number(const Value& x, DType type, double e) {
  if (type == DType::float64) {
    if (auto v = pow_by_number(x.f, e, true)) return Value::of_float(*v);
  } else if (type == DType::float32 || type == DType::bfloat16) {
    if (auto v = pow_by_number(static_cast<float>(x.f), e, type == DType::float32)) return Value::of_float(*v);
  }
  return std::nullopt;
}

// Evaluates op over the broadcast of a and b, reading each through a stride-0 view, into out's elements.
Result<std::vector<Value>> compute(Op op, const Tensor& a, const Tensor& b, const Shape& shape, DType type,
                                   double alpha) {
  const std::vector<int64_t> ao = element_offsets(a.expand(shape).value().view());
  const std::vector<int64_t> bo = element_offsets(b.expand(shape).value().view());
  const BinaryRule& rule = info(op);
  // A number exponent is pow(Tensor, Scalar), whose kernel has the special cases above.
  const std::optional<double> number_exponent =
      op == Op::pow && b.is_wrapped_number() ? std::optional<double>(b.read(b.offset()).as_double()) : std::nullopt;
  std::vector<Value> out(ao.size());
  for (size_t k = 0; k < ao.size(); ++k) {
    const Value x = convert(a.read(ao[k]), type), y = convert(b.read(bo[k]), type);
    std::optional<Value> r = number_exponent ? pow_by_number(x, type, *number_exponent) : std::nullopt;
    if (r) {
      // pow(Tensor, Scalar)'s special case gave it
    } else if (type == DType::float16 && (op == Op::add || op == Op::sub) && alpha != 1) {
      // LibTorch 1.13's CPU kernel computes a + alpha * b in c10::Half, whose product is a Half: alpha * b rounds
      // (and may overflow to inf) before the sum rounds at the store (docs/notes/dtypes.md, "alpha in float16").
      const auto half = static_cast<float>(convert(Value::of_float(alpha), type).f);
      const Value scaled = convert(Value::of_float(half * static_cast<float>(y.f)), type);
      if (auto v = rule.f32(static_cast<float>(x.f), static_cast<float>(scaled.f), 1.0f)) r = Value::of_float(*v);
    } else if (compute_float(type) == DType::float32) {  // float16 and bfloat16 compute in float (stored rounded)
      if (auto v = rule.f32(static_cast<float>(x.f), static_cast<float>(y.f), static_cast<float>(alpha))) r = Value::of_float(*v);
    } else if (type == DType::float64) {
      if (auto v = rule.f64(x.f, y.f, alpha)) r = Value::of_float(*v);
    } else {
      // For bool, LibTorch first converts alpha to bool (any non-zero alpha is true).
      const int64_t a = type == DType::bool_ ? (alpha != 0) : static_cast<int64_t>(alpha);
      const auto kernel = rule.i32 && type != DType::int64 ? rule.i32 : rule.i64;  // int8 ... int32 promote to int
      if (auto v = kernel(x.i, y.i, a)) r = Value::of_int(*v);
    }
    if (!r) return make_error(ErrorText::zero_division);
    out[k] = *r;
  }
  return out;
}

}  // namespace

Result<Tensor> binary(Op op, const Tensor& a, const Tensor& b, Scalar alpha) {
  op = out_of_place(op);
  if (auto e = pow_check(op, a, b)) return *e;
  if (auto e = sub_check(op, a, b)) return *e;
  Result<Shape> shape = broadcast_shapes(a.sizes(), b.sizes());
  if (!shape.ok()) return shape.error();
  const Types types = types_for(op, a, b);
  if (auto e = kernel_refusal(op, types.compute)) return *e;
  if (auto e = alpha_check(op, types.compute, alpha)) return *e;
  if (auto e = pow_exponent_check(op, types.compute, b)) return *e;
  Result<std::vector<Value>> values = compute(op, a, b, shape.value(), types.compute, alpha.value);
  if (!values.ok()) return values.error();
  return Tensor::of_values(shape.value(), types.result, values.value());
}

Result<Tensor> binary_(Op op, Tensor& self, const Tensor& other, Scalar alpha) {
  op = out_of_place(op);
  if (auto e = pow_check(op, self, other)) return *e;
  if (auto e = sub_check(op, self, other)) return *e;
  if (auto e = inplace_overlap_error(self, {&other})) return *e;
  Result<Shape> shape = inplace_shape(self.sizes(), {other.sizes()});
  if (!shape.ok()) return shape.error();
  const Types types = types_for(op, self, other);
  if (!can_cast(types.result, self.dtype())) return cast_error(types.result, self.dtype());
  if (auto e = kernel_refusal(op, types.compute)) return *e;
  if (auto e = alpha_check(op, types.compute, alpha)) return *e;
  if (auto e = pow_exponent_check(op, types.compute, other)) return *e;
  Result<std::vector<Value>> values = compute(op, self, other, shape.value(), types.compute, alpha.value);
  if (!values.ok()) return values.error();
  self.assign(values.value());
  return self;
}

Result<Tensor> binary_out(Op op, const Tensor& a, const Tensor& b, Scalar alpha, DType out) {
  op = out_of_place(op);
  if (auto e = pow_check(op, a, b)) return *e;
  if (auto e = sub_check(op, a, b)) return *e;
  Result<Shape> shape = broadcast_shapes(a.sizes(), b.sizes());
  if (!shape.ok()) return shape.error();
  const Types types = types_for(op, a, b);
  if (!can_cast(types.result, out)) return cast_error(types.result, out);
  if (auto e = kernel_refusal(op, types.compute)) return *e;
  if (auto e = alpha_check(op, types.compute, alpha)) return *e;
  if (auto e = pow_exponent_check(op, types.compute, b)) return *e;
  Result<std::vector<Value>> values = compute(op, a, b, shape.value(), types.compute, alpha.value);
  if (!values.ok()) return values.error();
  // Stored in the result type first (bool: true + true is true), then converted to out's dtype.
  return Tensor::of_values(shape.value(), out, Tensor::of_values(shape.value(), types.result, values.value()).values());
}

Result<Tensor> unary(Op op, const Tensor& t) {
  const UnaryRule* rule = unary_rule(op);
  if (!rule) throw std::logic_error(std::string("engine: ") + to_string(op) + " is not a pointwise unary op");
  DType type = t.dtype();
  if (type == DType::float16 && half_kernel(op))
    return make_error(ErrorText::not_implemented, {half_kernel(op), torch_name(type)});
  if (type == DType::bool_) {
    switch (rule->on_bool) {
      case OnBool::negation_error: return make_error(ErrorText::neg_bool);
      case OnBool::no_kernel: return make_error(ErrorText::not_implemented, {rule->kernel, torch_name(type)});
      case OnBool::to_float: type = DType::float32; break;
      case OnBool::computes: break;
    }
  } else if (category(type) != Category::floating && !rule->i64) {
    type = DType::float32;
  }
  const std::vector<int64_t> at = element_offsets(t.view());
  std::vector<Value> out(at.size());
  for (size_t k = 0; k < at.size(); ++k) {
    const Value x = convert(t.read(at[k]), type);
    if (compute_float(type) == DType::float32) out[k] = Value::of_float(rule->f32(static_cast<float>(x.f)));
    else if (type == DType::float64) out[k] = Value::of_float(rule->f64(x.f));
    else out[k] = Value::of_int(rule->i64(x.i));  // an integer, or bool as 0 and 1 (sign), stored back (wrapped)
  }
  return Tensor::of_values(t.sizes(), type, out);
}

namespace {

Result<Tensor> lerp_into(const Tensor& start, const Tensor& end, const Tensor& weight, Tensor* self) {
  // This message prints dtypes as C++ type names ("float", "long int"), as LibTorch's TypeMeta does.
  for (const Tensor* t : {&end, &weight})
    if (t->dtype() != start.dtype())
      return make_error(ErrorText::lerp_dtype,
                        {cxx_type_name(start.dtype()), t == &end ? "end" : "weight", cxx_type_name(t->dtype())});
  if (self)
    if (auto e = inplace_overlap_error(*self, {&end, &weight})) return *e;
  Result<Shape> shape = self ? inplace_shape(start.sizes(), {end.sizes(), weight.sizes()})
                             : broadcast_shapes(std::vector<Shape>{start.sizes(), end.sizes(), weight.sizes()});
  if (!shape.ok()) return shape.error();
  if (category(start.dtype()) != Category::floating || start.dtype() == DType::float16)  // the kernel's dispatch, last
    return make_error(ErrorText::not_implemented, {"lerp_kernel_tensor", torch_name(start.dtype())});
  const Shape& s = shape.value();
  const auto so = element_offsets(start.expand(s).value().view()), eo = element_offsets(end.expand(s).value().view()),
             wo = element_offsets(weight.expand(s).value().view());
  std::vector<Value> out(so.size());
  const bool single = compute_float(start.dtype()) == DType::float32;
  for (size_t k = 0; k < so.size(); ++k) {
    // LibTorch 1.13's formula: from `start` when weight < 0.5 (signed: negative weights too), else from `end`.
    const double a = start.read(so[k]).f, b = end.read(eo[k]).f, w = weight.read(wo[k]).f;
    if (single) {
      const float fa = static_cast<float>(a), fb = static_cast<float>(b), fw = static_cast<float>(w);
      out[k] = Value::of_float(fw < 0.5f ? fa + fw * (fb - fa) : fb - (fb - fa) * (1 - fw));
    } else {
      out[k] = Value::of_float(w < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w));
    }
  }
  if (!self) return Tensor::of_values(s, start.dtype(), out);
  self->assign(out);
  return *self;
}

}  // namespace

Result<Tensor> lerp(const Tensor& start, const Tensor& end, const Tensor& weight) {
  return lerp_into(start, end, weight, nullptr);
}

Result<Tensor> lerp_(Tensor& self, const Tensor& end, const Tensor& weight) { return lerp_into(self, end, weight, &self); }

Result<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  // where(c, x, 2.5) makes the number a 0-d tensor of the result type first, with c10's checked conversion
  // (LibTorch 1.13: where(c, int8, 300) is refused, where x + 300 wraps).
  for (const Tensor* t : {&a, &b}) {
    if (!t->is_wrapped_number()) continue;
    const Value v = t->read(t->offset());
    if (auto e = scalar_overflow(v.as_double(), !v.is_float, result_type({operand_of(a), operand_of(b)}))) return *e;
  }
  if (cond.dtype() != DType::bool_)
    return make_error(ErrorText::where_condition, {torch_name(cond.dtype())});
  Result<Shape> shape = broadcast_shapes(std::vector<Shape>{cond.sizes(), a.sizes(), b.sizes()});
  if (!shape.ok()) return shape.error();
  const Shape& s = shape.value();
  const DType type = result_type({operand_of(a), operand_of(b)});
  const auto co = element_offsets(cond.expand(s).value().view()), ao = element_offsets(a.expand(s).value().view()),
             bo = element_offsets(b.expand(s).value().view());
  std::vector<Value> out(co.size());
  for (size_t k = 0; k < co.size(); ++k) out[k] = convert(cond.read(co[k]).i ? a.read(ao[k]) : b.read(bo[k]), type);
  return Tensor::of_values(s, type, out);
}

}  // namespace bc
