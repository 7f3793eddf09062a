#include "engine/grad_math.h"

#include <cmath>

#include "engine/broadcast.h"

namespace bc {
namespace {

template <class F>
Tensor map(const Tensor& t, F f) {
  std::vector<double> out;
  for (const Value& v : t.values()) out.push_back(f(v.as_double()));
  return Tensor::from_values(t.sizes(), t.dtype(), out);
}

// LibTorch's div_floor_floating: floor of the quotient, computed from fmod so that it is exact, and rounded to
// the nearest integer when the quotient lands just below one.
template <class T>
T floor_divide(T a, T b) {
  if (b == 0) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= T(1);
  if (div == 0) return std::copysign(T(0), a / b);
  T floored = std::floor(div);
  if (div - floored > T(0.5)) floored += T(1);
  return floored;
}

}  // namespace

Tensor neg(const Tensor& t) {
  return map(t, [](double x) { return -x; });
}

Tensor log(const Tensor& t) {
  // Integers and bools are computed in the default float dtype, as LibTorch's log does.
  if (t.dtype() == DType::float64) return map(t, [](double x) { return std::log(x); });
  const Tensor f = category(t.dtype()) == Category::floating ? t : Tensor::from_values(t.sizes(), DType::float32, t.to_doubles());
  return map(f, [](double x) { return std::log(static_cast<float>(x)); });
}

Tensor div_rounded(const Tensor& a, const Tensor& b, Rounding mode) {
  const Shape shape = broadcast_shapes(a.sizes(), b.sizes()).value();
  const DType type = result_type({operand_of(a), operand_of(b)});
  const std::vector<Value> x = a.expand(shape).value().values(), y = b.expand(shape).value().values();
  std::vector<double> out(x.size());
  for (size_t k = 0; k < x.size(); ++k) {
    if (compute_float(type) == DType::float32) {
      const float p = static_cast<float>(x[k].as_double()), q = static_cast<float>(y[k].as_double());
      out[k] = mode == Rounding::trunc ? std::trunc(p / q) : floor_divide(p, q);
    } else {
      const double p = x[k].as_double(), q = y[k].as_double();
      out[k] = mode == Rounding::trunc ? std::trunc(p / q) : floor_divide(p, q);
    }
  }
  return Tensor::from_values(shape, type, out);
}

Tensor scalar_tensor(double v, DType dtype) { return Tensor::from_values({}, dtype, {v}); }

}  // namespace bc
