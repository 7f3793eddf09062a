#include "engine/elementwise.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>

#include "engine/broadcast.h"
#include "engine/inplace.h"
#include "engine/wrapping.h"

namespace bc {
namespace {

struct OpInfo {
  BinaryOp op;
  const char* name;
  bool float_only;  // integer inputs are computed in the default float dtype (true division, atan2)
  bool comparison;  // the result is bool
};

const OpInfo kOps[] = {
    {BinaryOp::add, "add", false, false},         {BinaryOp::sub, "sub", false, false},
    {BinaryOp::mul, "mul", false, false},         {BinaryOp::div, "div", true, false},
    {BinaryOp::pow, "pow", false, false},         {BinaryOp::atan2, "atan2", true, false},
    {BinaryOp::fmod, "fmod", false, false},       {BinaryOp::remainder, "remainder", false, false},
    {BinaryOp::maximum, "maximum", false, false}, {BinaryOp::minimum, "minimum", false, false},
    {BinaryOp::eq, "eq", false, true},            {BinaryOp::ne, "ne", false, true},
    {BinaryOp::lt, "lt", false, true},            {BinaryOp::le, "le", false, true},
    {BinaryOp::gt, "gt", false, true},            {BinaryOp::ge, "ge", false, true},
};

const OpInfo& info(BinaryOp op) { return kOps[static_cast<int>(op)]; }

Error invalid(std::string message) { return Error{ErrorKind::invalid_argument, std::move(message)}; }

// Integer power as LibTorch's powi: negative exponents give 0 except for bases 1 and -1.
int64_t int_pow(int64_t base, int64_t exp) {
  if (exp < 0) return base == 1 ? 1 : base == -1 ? (exp % 2 == 0 ? 1 : -1) : 0;
  int64_t result = 1;
  while (exp > 0) {
    if (exp & 1) result = wrap_mul(result, base);
    base = wrap_mul(base, base);
    exp >>= 1;
  }
  return result;
}

// One scalar function for each op, in the compute type T (float, double, int64_t; bool is computed as int64_t
// and stored back as "not zero"). Returns nullopt for an integer division by zero.
template <class T>
std::optional<T> apply(BinaryOp op, T x, T y, T alpha) {
  constexpr bool fp = std::is_floating_point_v<T>;
  switch (op) {
    case BinaryOp::add:
      if constexpr (fp) return x + alpha * y; else return wrap_add(x, wrap_mul(alpha, y));
    case BinaryOp::sub:
      if constexpr (fp) return x - alpha * y; else return wrap_sub(x, wrap_mul(alpha, y));
    case BinaryOp::mul:
      if constexpr (fp) return x * y; else return wrap_mul(x, y);
    case BinaryOp::div:
    case BinaryOp::atan2:
      if constexpr (fp) return op == BinaryOp::div ? x / y : std::atan2(x, y);
      else return std::nullopt;  // never reached: these compute in floating types
    case BinaryOp::pow:
      if constexpr (fp) return std::pow(x, y); else return int_pow(x, y);
    case BinaryOp::fmod:
      if constexpr (fp) return std::fmod(x, y);
      else {
        if (y == 0) return std::nullopt;
        return y == -1 ? 0 : x % y;  // INT64_MIN % -1 is 0 (C++ would trap)
      }
    case BinaryOp::remainder:  // floor-mod: the result takes the divisor's sign
      if constexpr (fp) {
        T r = std::fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return r;
      } else {
        if (y == 0) return std::nullopt;
        int64_t r = y == -1 ? 0 : x % y;
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return r;
      }
    case BinaryOp::maximum:
    case BinaryOp::minimum:
      if constexpr (fp)
        if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
      return op == BinaryOp::maximum ? (x > y ? x : y) : (x < y ? x : y);
    case BinaryOp::eq: return x == y;
    case BinaryOp::ne: return x != y;
    case BinaryOp::lt: return x < y;
    case BinaryOp::le: return x <= y;
    case BinaryOp::gt: return x > y;
    case BinaryOp::ge: return x >= y;
  }
  return std::nullopt;
}

// The dtype an op computes in, the dtype of its result, or the error LibTorch raises for these dtypes.
struct Types {
  DType compute, result;
};

// sub's bool check, which LibTorch makes before anything else.
std::optional<Error> sub_check(BinaryOp op, const Tensor& a, const Tensor& b) {
  if (op == BinaryOp::sub && a.dtype() == DType::bool_ && b.dtype() == DType::bool_)
    return invalid("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                   "`logical_xor()` operator instead.");
  if (op == BinaryOp::sub && (a.dtype() == DType::bool_ || b.dtype() == DType::bool_))
    return invalid("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                   "invert a mask, use the `~` or `logical_not()` operator instead.");
  return std::nullopt;
}

// alpha's check, which LibTorch makes after it has computed the result type (and, in place, checked the cast).
std::optional<Error> alpha_check(BinaryOp op, DType compute, Scalar alpha) {
  if ((op == BinaryOp::add || op == BinaryOp::sub) && category(compute) != Category::floating && !alpha.integral)
    return invalid("For integral input tensors, argument alpha must not be a floating point number.");
  return std::nullopt;
}

Result<Types> types_for(BinaryOp op, const Tensor& a, const Tensor& b) {
  DType compute = result_type({{a.dtype(), a.dim() == 0}, {b.dtype(), b.dim() == 0}});
  if (info(op).float_only && category(compute) != Category::floating) compute = DType::float32;
  // LibTorch has no bool kernel for these three (its messages name the kernel).
  static const std::pair<BinaryOp, const char*> no_bool_kernel[] = {
      {BinaryOp::pow, "pow"}, {BinaryOp::fmod, "fmod_cpu"}, {BinaryOp::remainder, "remainder_cpu"}};
  for (const auto& [which, kernel] : no_bool_kernel)
    if (op == which && compute == DType::bool_)
      return invalid(std::string("\"") + kernel + "\" not implemented for 'Bool'");
  return Types{compute, info(op).comparison ? DType::bool_ : compute};
}

// Evaluates op over the broadcast of a and b, reading each through a stride-0 view, into out's elements.
Result<std::vector<Value>> compute(BinaryOp op, const Tensor& a, const Tensor& b, const Shape& shape, DType type,
                                   double alpha) {
  const std::vector<int64_t> ao = element_offsets(a.expand(shape).value().view());
  const std::vector<int64_t> bo = element_offsets(b.expand(shape).value().view());
  std::vector<Value> out(ao.size());
  for (size_t k = 0; k < ao.size(); ++k) {
    const Value x = convert(a.read(ao[k]), type), y = convert(b.read(bo[k]), type);
    std::optional<Value> r;
    if (type == DType::float32) {
      if (auto v = apply<float>(op, static_cast<float>(x.f), static_cast<float>(y.f), static_cast<float>(alpha))) r = Value::of_float(*v);
    } else if (type == DType::float64) {
      if (auto v = apply<double>(op, x.f, y.f, alpha)) r = Value::of_float(*v);
    } else {
      // For bool, LibTorch first converts alpha to bool (any non-zero alpha is true).
      const int64_t a = type == DType::bool_ ? (alpha != 0) : static_cast<int64_t>(alpha);
      if (auto v = apply<int64_t>(op, x.i, y.i, a)) r = Value::of_int(*v);
    }
    if (!r) return invalid("ZeroDivisionError");
    out[k] = *r;
  }
  return out;
}

}  // namespace

std::optional<BinaryOp> binary_op_from_name(const std::string& name) {
  for (const OpInfo& o : kOps)
    if (name == o.name) return o.op;
  return std::nullopt;
}

const char* to_string(BinaryOp op) { return info(op).name; }
bool is_comparison(BinaryOp op) { return info(op).comparison; }

Result<Tensor> binary(BinaryOp op, const Tensor& a, const Tensor& b, Scalar alpha) {
  if (auto e = sub_check(op, a, b)) return *e;
  Result<Shape> shape = broadcast_shapes(a.sizes(), b.sizes());
  if (!shape.ok()) return shape.error();
  Result<Types> types = types_for(op, a, b);
  if (!types.ok()) return types.error();
  if (auto e = alpha_check(op, types.value().compute, alpha)) return *e;
  Result<std::vector<Value>> values = compute(op, a, b, shape.value(), types.value().compute, alpha.value);
  if (!values.ok()) return values.error();
  return Tensor::of_values(shape.value(), types.value().result, values.value());
}

Result<Tensor> binary_(BinaryOp op, Tensor& self, const Tensor& other, Scalar alpha) {
  if (auto e = sub_check(op, self, other)) return *e;
  if (auto e = inplace_overlap_error(self, {&other})) return *e;
  Result<Shape> shape = inplace_shape(self.sizes(), {other.sizes()});
  if (!shape.ok()) return shape.error();
  Result<Types> types = types_for(op, self, other);
  if (!types.ok()) return types.error();
  if (!can_cast(types.value().result, self.dtype()))
    return Error{ErrorKind::dtype_cast, cast_error_message(types.value().result, self.dtype())};
  if (auto e = alpha_check(op, types.value().compute, alpha)) return *e;
  Result<std::vector<Value>> values = compute(op, self, other, shape.value(), types.value().compute, alpha.value);
  if (!values.ok()) return values.error();
  self.assign(values.value());
  return self;
}

namespace {

Result<Tensor> lerp_into(const Tensor& start, const Tensor& end, const Tensor& weight, Tensor* self) {
  // These messages print dtypes as C++ type names ("float", "long int"), as LibTorch's TypeMeta does.
  auto cxx_name = [](DType t) {
    return t == DType::bool_ ? "bool" : t == DType::int64 ? "long int" : t == DType::float32 ? "float" : "double";
  };
  for (const Tensor* t : {&end, &weight})
    if (t->dtype() != start.dtype())
      return invalid(std::string("expected dtype ") + cxx_name(start.dtype()) + " for `" +
                     (t == &end ? "end" : "weight") + "` but got dtype " + cxx_name(t->dtype()));
  if (self)
    if (auto e = inplace_overlap_error(*self, {&end, &weight})) return *e;
  Result<Shape> shape = self ? inplace_shape(start.sizes(), {end.sizes(), weight.sizes()})
                             : broadcast_shapes(std::vector<Shape>{start.sizes(), end.sizes(), weight.sizes()});
  if (!shape.ok()) return shape.error();
  if (category(start.dtype()) != Category::floating)  // the kernel's dispatch, last
    return invalid(std::string("\"lerp_kernel_tensor\" not implemented for '") + torch_name(start.dtype()) + "'");
  const Shape& s = shape.value();
  const auto so = element_offsets(start.expand(s).value().view()), eo = element_offsets(end.expand(s).value().view()),
             wo = element_offsets(weight.expand(s).value().view());
  std::vector<Value> out(so.size());
  const bool single = start.dtype() == DType::float32;
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
  if (cond.dtype() != DType::bool_)
    return invalid(std::string("where expected condition to be a boolean tensor, but got a tensor with dtype ") +
                   torch_name(cond.dtype()));
  Result<Shape> shape = broadcast_shapes(std::vector<Shape>{cond.sizes(), a.sizes(), b.sizes()});
  if (!shape.ok()) return shape.error();
  const Shape& s = shape.value();
  const DType type = result_type({{a.dtype(), a.dim() == 0}, {b.dtype(), b.dim() == 0}});
  const auto co = element_offsets(cond.expand(s).value().view()), ao = element_offsets(a.expand(s).value().view()),
             bo = element_offsets(b.expand(s).value().view());
  std::vector<Value> out(co.size());
  for (size_t k = 0; k < co.size(); ++k) out[k] = convert(cond.read(co[k]).i ? a.read(ao[k]) : b.read(bo[k]), type);
  return Tensor::of_values(s, type, out);
}

}  // namespace bc
