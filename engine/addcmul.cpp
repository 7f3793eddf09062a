#include "engine/addcmul.h"

#include <optional>

#include "engine/broadcast.h"
#include "engine/error_texts.h"
#include "engine/inplace.h"
#include "engine/scalar_overflow.h"
#include "engine/wrapping.h"

namespace bc {
namespace {

// LibTorch checks this before anything else, bool counting as an integer type.
std::optional<Error> integer_division(AddcOp op, const Tensor& a, const Tensor& b) {
  if (op != AddcOp::addcdiv || category(a.dtype()) == Category::floating ||
      category(b.dtype()) == Category::floating)
    return std::nullopt;
  return make_error(ErrorText::addcdiv_integer);
}

// One element, in the computation type: (value * a) * b or (value * a) / b, then added to c, in that order.
template <class T>
T combine(AddcOp op, T c, T a, T b, T value) {
  return op == AddcOp::addcmul ? c + value * a * b : c + value * a / b;
}

std::vector<Value> compute(AddcOp op, const Tensor& c, const Tensor& a, const Tensor& b, const Shape& shape,
                           DType type, double value) {
  const auto co = element_offsets(c.expand(shape).value().view()), ao = element_offsets(a.expand(shape).value().view()),
             bo = element_offsets(b.expand(shape).value().view());
  std::vector<Value> out(co.size());
  for (size_t k = 0; k < co.size(); ++k) {
    const Value x = convert(c.read(co[k]), type), y = convert(a.read(ao[k]), type), z = convert(b.read(bo[k]), type);
    if (compute_float(type) == DType::float32) {  // float16 and bfloat16 compute in float
      out[k] = Value::of_float(combine<float>(op, static_cast<float>(x.f), static_cast<float>(y.f),
                                              static_cast<float>(z.f), static_cast<float>(value)));
    } else if (type == DType::float64) {
      out[k] = Value::of_float(combine<double>(op, x.f, y.f, z.f, value));
    } else {  // an integer (addcdiv never computes in an integer type): wrapping, the value truncated towards zero
      out[k] = Value::of_int(wrap_add(x.i, wrap_mul(wrap_mul(static_cast<int64_t>(value), y.i), z.i)));
    }
  }
  return out;
}

Result<Tensor> run(AddcOp op, const Tensor& c, const Tensor& a, const Tensor& b, Scalar value, Tensor* self) {
  if (auto e = integer_division(op, a, b)) return *e;
  if (self)
    if (auto e = inplace_overlap_error(*self, {&a, &b})) return *e;
  Result<Shape> shape = self ? inplace_shape(c.sizes(), {a.sizes(), b.sizes()})
                             : broadcast_shapes(std::vector<Shape>{c.sizes(), a.sizes(), b.sizes()});
  if (!shape.ok()) return shape.error();
  const DType type = result_type({operand_of(c), operand_of(a), operand_of(b)});
  if (self && !can_cast(type, self->dtype())) return cast_error(type, self->dtype());
  if (type == DType::bool_ || type == DType::float16)
    return make_error(ErrorText::not_implemented,
                      {op == AddcOp::addcmul ? "addcmul_cpu_out" : "addcdiv_cpu_out", torch_name(type)});
  if (auto e = scalar_overflow(value.value, value.integral, type)) return *e;  // the kernel's value.to<scalar_t>()
  const std::vector<Value> values = compute(op, c, a, b, shape.value(), type, value.value);
  if (!self) return Tensor::of_values(shape.value(), type, values);
  self->assign(values);
  return *self;
}

}  // namespace

Result<Tensor> addc(AddcOp op, const Tensor& c, const Tensor& a, const Tensor& b, Scalar value) {
  return run(op, c, a, b, value, nullptr);
}

Result<Tensor> addc_(AddcOp op, Tensor& c, const Tensor& a, const Tensor& b, Scalar value) {
  return run(op, c, a, b, value, &c);
}

}  // namespace bc
