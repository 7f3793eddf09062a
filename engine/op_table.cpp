#include "engine/op_table.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

#include "engine/autograd_formula.h"
#include "engine/elementwise.h"
#include "engine/grad_math.h"
#include "engine/reduction.h"
#include "engine/wrapping.h"

namespace bc {
namespace {

// The backward formulas are written with autograd_formula.h's tensor ops.
using ag::choose;
using ag::div;
using ag::mul;
using ag::number;
Tensor op(Op o, const Tensor& a, const Tensor& b) { return ag::apply(o, a, b); }
Tensor masked_fill_zero(const Tensor& x, const Tensor& mask) { return choose(mask, number(0, x), x); }

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

// A rule's scalar functions from one generic lambda, instantiated for float, double and int64_t (bool computes as
// int64_t and is stored back as "not zero"). A lambda may return nullopt: an integer division by zero.
template <class F>
struct Kernels {
  static std::optional<float> f32(float x, float y, float a) { return F{}(x, y, a); }
  static std::optional<double> f64(double x, double y, double a) { return F{}(x, y, a); }
  static std::optional<int64_t> i64(int64_t x, int64_t y, int64_t a) { return F{}(x, y, a); }
};
template <class T>
constexpr bool fp = std::is_floating_point_v<T>;

#define BC_KERNELS(F) Kernels<F>::f32, Kernels<F>::f64, Kernels<F>::i64

// ---- Each op: its scalar forward, then its backward (derivatives.yaml's formula, in LibTorch 1.13's order). ----

struct AddF {
  template <class T> std::optional<T> operator()(T x, T y, T a) const {
    if constexpr (fp<T>) return x + a * y; else return wrap_add(x, wrap_mul(a, y));
  }
};
BinaryGrads add_grad(const BinaryGradInputs& in) { return {in.grad, ag::maybe_multiply(in.grad, in.alpha)}; }

struct SubF {
  template <class T> std::optional<T> operator()(T x, T y, T a) const {
    if constexpr (fp<T>) return x - a * y; else return wrap_sub(x, wrap_mul(a, y));
  }
};
BinaryGrads sub_grad(const BinaryGradInputs& in) { return {in.grad, ag::maybe_multiply(neg(in.grad), in.alpha)}; }

struct MulF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return x * y; else return wrap_mul(x, y);
  }
};
BinaryGrads mul_grad(const BinaryGradInputs& in) {
  BinaryGrads g;
  if (in.need_self) g.self = mul(in.grad, in.other);
  if (in.need_other) g.other = mul(in.grad, in.self);
  return g;
}

struct DivF {  // true division: integer inputs compute in float32 (float_only), so T is floating here
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return x / y; else return std::nullopt;
  }
};
BinaryGrads div_grad(const BinaryGradInputs& in) {
  BinaryGrads g;
  if (in.need_self) g.self = div(in.grad, in.other);
  if (in.need_other) g.other = mul(neg(in.grad), div(div(in.self, in.other), in.other));
  return g;
}

struct PowF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return std::pow(x, y); else return int_pow(x, y);
  }
};
// A Python number exponent (x ** 3) is LibTorch's pow(Tensor, Scalar), whose backward takes the exponent as a double
// first (exponent.toDouble() - 1: 2^53 + 1 becomes 2^53, so 2^53 - 1 is odd), where a tensor exponent's stays an
// integer tensor (2^53 + 1 - 1 is even): they differ in the sign of an odd power of a negative base.
Tensor exponent_of(const Tensor& other) {
  if (!other.is_wrapped_number() || category(other.dtype()) == Category::floating) return other;
  return wrapped_number(Number::of_float(other.to_doubles()[0]));
}
BinaryGrads pow_grad(const BinaryGradInputs& in) {
  BinaryGrads g;
  const Tensor zero = number(0, in.grad);
  if (in.need_self) {
    const Tensor e = exponent_of(in.other);
    // A number's exponent - 1 stays a number, so that self ** (e - 1) is pow(Tensor, Scalar) too (0.5 - 1 is rsqrt).
    const Tensor less_one = e.is_wrapped_number() ? wrapped_number(Number::of_float(e.to_doubles()[0] - 1))
                                                  : op(Op::sub, e, number(1, e));
    const Tensor power = op(Op::pow, in.self, less_one);
    g.self = choose(op(Op::eq, e, number(0, e)), zero, mul(in.grad, mul(e, power)));
  }
  if (in.need_other) {
    const Tensor at_zero = mul(op(Op::eq, in.self, number(0, in.self)), op(Op::ge, in.other, number(0, in.other)));
    g.other = mul(in.grad, choose(at_zero, zero, mul(in.result, log(in.self))));
  }
  return g;
}

struct Atan2F {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return std::atan2(x, y); else return std::nullopt;
  }
};
BinaryGrads atan2_grad(const BinaryGradInputs& in) {
  BinaryGrads g;
  const Tensor recip = div(number(1, in.self), op(Op::add, mul(in.self, in.self), mul(in.other, in.other)));
  if (in.need_self) g.self = mul(mul(in.grad, in.other), recip);
  if (in.need_other) g.other = mul(mul(in.grad, neg(in.self)), recip);
  return g;
}

struct FmodF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return std::fmod(x, y);
    else {
      if (y == 0) return std::nullopt;
      return y == -1 ? 0 : x % y;  // INT64_MIN % -1 is 0 (C++ would trap)
    }
  }
};
BinaryGrads fmod_grad(const BinaryGradInputs& in) {
  BinaryGrads g{in.grad, std::nullopt};
  if (in.need_other) g.other = mul(neg(in.grad), div_rounded(in.self, in.other, Rounding::trunc));
  return g;
}

struct RemainderF {  // floor-mod: the result takes the divisor's sign
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    T r;
    if constexpr (fp<T>) {
      r = std::fmod(x, y);
    } else {
      if (y == 0) return std::nullopt;
      r = y == -1 ? 0 : x % y;
    }
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
  }
};
BinaryGrads remainder_grad(const BinaryGradInputs& in) {
  BinaryGrads g{in.grad, std::nullopt};
  if (in.need_other) g.other = mul(neg(in.grad), div_rounded(in.self, in.other, Rounding::floor));
  return g;
}

template <bool Max>
struct ExtremumF {  // NaN wins
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>)
      if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
    return Max ? (x > y ? x : y) : (x < y ? x : y);
  }
};
// Ties share the gradient equally; the losing side gets none.
template <bool Max>
BinaryGrads extremum_grad(const BinaryGradInputs& in) {
  BinaryGrads g;
  const Tensor split = choose(op(Op::eq, in.self, in.other), div(in.grad, number(2, in.grad)), in.grad);
  if (in.need_self) g.self = masked_fill_zero(split, op(Max ? Op::lt : Op::gt, in.self, in.other));
  if (in.need_other) g.other = masked_fill_zero(split, op(Max ? Op::gt : Op::lt, in.self, in.other));
  return g;
}

#define BC_COMPARISON(NAME, EXPR) \
  struct NAME {                   \
    template <class T> std::optional<T> operator()(T x, T y, T) const { return EXPR; } \
  };
BC_COMPARISON(EqF, x == y)
BC_COMPARISON(NeF, x != y)
BC_COMPARISON(LtF, x < y)
BC_COMPARISON(LeF, x <= y)
BC_COMPARISON(GtF, x > y)
BC_COMPARISON(GeF, x >= y)
// The logical ops: any dtype, each operand true when not zero (NaN is true), computed in the promoted dtype.
BC_COMPARISON(LogicalAndF, x != 0 && y != 0)
BC_COMPARISON(LogicalOrF, x != 0 || y != 0)
BC_COMPARISON(LogicalXorF, (x != 0) != (y != 0))
#undef BC_COMPARISON

struct HypotF {  // LibTorch has no integer or bool kernel: T is floating here
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return std::hypot(x, y); else return std::nullopt;
  }
};
BinaryGrads hypot_grad(const BinaryGradInputs& in) {  // grad * self / result, grad * other / result
  BinaryGrads g;
  if (in.need_self) g.self = div(mul(in.grad, in.self), in.result);
  if (in.need_other) g.other = div(mul(in.grad, in.other), in.result);
  return g;
}

// Floor division as LibTorch 1.13's div_floor kernels compute it. Integers: the quotient rounded towards -inf
// (a zero divisor is an error; INT64_MIN // -1 wraps to INT64_MIN). Floats: a / b for a zero divisor, else
// (a - fmod(a, b)) / b, one less when the remainder's sign differs from b's, then floored (rounded up when more
// than 0.5 below), a zero result taking the sign of a / b: so inf // 1 is NaN and -1 // inf is -1.
struct FloorDivideF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) {
      if (y == 0) return x / y;
      const T mod = std::fmod(x, y);
      T quotient = (x - mod) / y;
      if (mod != 0 && ((y < 0) != (mod < 0))) quotient -= T(1);
      if (quotient == 0) return std::copysign(T(0), x / y);
      T floored = std::floor(quotient);
      if (quotient - floored > T(0.5)) floored += T(1);
      return floored;
    } else {
      if (y == 0) return std::nullopt;
      if (y == -1) return wrap_sub(0, x);  // INT64_MIN // -1 wraps (C++ would trap)
      const T q = x / y;
      return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
    }
  }
};

// ---- The bitwise ops and shifts: integers (bool: as 0 and 1, the bitwise ops only); floating dtypes are refused. --
#define BC_BITWISE(NAME, EXPR)                                          \
  struct NAME {                                                         \
    template <class T> std::optional<T> operator()(T x, T y, T) const { \
      if constexpr (fp<T>) return std::nullopt; else return EXPR;       \
    }                                                                   \
  };
BC_BITWISE(BitAndF, x & y)
BC_BITWISE(BitOrF, x | y)
BC_BITWISE(BitXorF, x ^ y)
#undef BC_BITWISE

// LibTorch 1.13's CPU shifts are C++'s shifts on the operands promoted to int (int64: long), which x86 computes
// with the count taken modulo the promoted width W (32 or 64): a negative or too large count is neither an error
// nor a zero (int32: 1 << -1 is 1 << 31; int8: 3 << 32 is 3; int64: -7 >> 70 is -7 >> 6), probed on every integer
// dtype, contiguous, strided and broadcast. A left shift computes in W's unsigned type, a right shift is
// arithmetic; the result is stored back in the dtype (wrapped).
template <class W>
int shift_count(int64_t y) {
  return static_cast<int>(static_cast<std::make_unsigned_t<W>>(y) & (sizeof(W) * 8 - 1));
}
template <class W>
struct ShiftLeftF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return std::nullopt;
    else return static_cast<W>(static_cast<std::make_unsigned_t<W>>(static_cast<W>(x)) << shift_count<W>(y));
  }
};
template <class W>
struct ShiftRightF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) return std::nullopt;
    else return static_cast<W>(static_cast<W>(x) >> shift_count<W>(y));
  }
};

// logaddexp as LibTorch 1.13's CPU kernel: equal infinities give themselves, else max + log1p(exp(-|a - b|)).
// Floating only: LibTorch has no integer or bool kernel.
struct LogaddexpF {
  template <class T> std::optional<T> operator()(T x, T y, T) const {
    if constexpr (fp<T>) {
      if (std::isinf(x) && x == y) return x;
      return std::max(x, y) + std::log1p(std::exp(-std::abs(x - y)));
    } else {
      return std::nullopt;
    }
  }
};
// derivatives.yaml: self: grad / (1 + exp(other - self)), other: grad / (1 + exp(self - other)).
BinaryGrads logaddexp_grad(const BinaryGradInputs& in) {
  BinaryGrads g;
  const auto part = [&](const Tensor& x, const Tensor& y) {
    return div(in.grad, op(Op::add, number(1, x), ag::must(unary(Op::exp, op(Op::sub, y, x)))));
  };
  if (in.need_self) g.self = part(in.self, in.other);
  if (in.need_other) g.other = part(in.other, in.self);
  return g;
}

// ---- The unary ops: scalar forward per compute type, then the backward as derivatives.yaml writes it. ----

// A unary rule's scalar functions from one generic lambda (int64_t only for the ops with an integer kernel).
template <class F>
struct UnaryKernels {
  static float f32(float x) { return F{}(x); }
  static double f64(double x) { return F{}(x); }
  static int64_t i64(int64_t x) { return F{}(x); }
};
Tensor unary_op(Op o, const Tensor& t) { return ag::must(bc::unary(o, t)); }

struct NegF {
  template <class T> T operator()(T x) const {
    if constexpr (fp<T>) return -x; else return wrap_sub(0, x);
  }
};
Tensor neg_grad(const UnaryGradInputs& in) { return unary_op(Op::neg, in.grad); }

struct AbsF {  // INT64_MIN stays INT64_MIN (two's complement, as LibTorch's kernel)
  template <class T> T operator()(T x) const {
    if constexpr (fp<T>) return std::fabs(x); else return x < 0 ? wrap_sub(0, x) : x;
  }
};
Tensor abs_grad(const UnaryGradInputs& in) { return mul(in.grad, unary_op(Op::sign, in.self)); }  // grad * sgn(self)

struct SqrtF {
  template <class T> T operator()(T x) const { return std::sqrt(x); }
};
Tensor sqrt_grad(const UnaryGradInputs& in) { return div(in.grad, mul(number(2, in.result), in.result)); }

struct ExpF {
  template <class T> T operator()(T x) const { return std::exp(x); }
};
Tensor exp_grad(const UnaryGradInputs& in) { return mul(in.grad, in.result); }

struct LogF {
  template <class T> T operator()(T x) const { return std::log(x); }
};
Tensor log_grad(const UnaryGradInputs& in) { return div(in.grad, in.self); }

struct SignF {  // (0 < x) - (x < 0): NaN and both zeros give +0, as LibTorch's kernel
  template <class T> T operator()(T x) const { return static_cast<T>(T(0) < x) - static_cast<T>(x < T(0)); }
};
Tensor sign_grad(const UnaryGradInputs& in) { return Tensor::zeros(in.grad.sizes(), in.grad.dtype()); }

struct ReciprocalF {
  template <class T> T operator()(T x) const { return T(1) / x; }
};
Tensor reciprocal_grad(const UnaryGradInputs& in) { return mul(neg(in.grad), mul(in.result, in.result)); }

#define BC_UNARY(F) UnaryKernels<F>::f32, UnaryKernels<F>::f64
// ---- The unary rules:  kernels                     int64 kernel             bool            refusal
const UnaryRule kNeg{BC_UNARY(NegF), UnaryKernels<NegF>::i64, OnBool::negation_error, nullptr, "NegBackward0",
                     {}, neg_grad};
const UnaryRule kAbs{BC_UNARY(AbsF), UnaryKernels<AbsF>::i64, OnBool::no_kernel, "abs_cpu", "AbsBackward0",
                     {true, false, false}, abs_grad};
const UnaryRule kSqrt{BC_UNARY(SqrtF), nullptr, OnBool::to_float, nullptr, "SqrtBackward0", {false, false, true},
                      sqrt_grad};
const UnaryRule kExp{BC_UNARY(ExpF), nullptr, OnBool::to_float, nullptr, "ExpBackward0", {false, false, true},
                     exp_grad};
const UnaryRule kLog{BC_UNARY(LogF), nullptr, OnBool::to_float, nullptr, "LogBackward0", {true, false, false},
                     log_grad};
const UnaryRule kSign{BC_UNARY(SignF), UnaryKernels<SignF>::i64, OnBool::computes, nullptr, "SignBackward0", {},
                      sign_grad};
const UnaryRule kReciprocal{BC_UNARY(ReciprocalF), nullptr, OnBool::to_float, nullptr, "ReciprocalBackward0",
                            {false, false, true}, reciprocal_grad};
#undef BC_UNARY

// ---- The rules. Reads: what the self formula and the other formula read (self, other, result). ----
using R = Refuses;
//                    kernels                 float  cmp    refuses dtypes (kernel name)   node
const BinaryRule kAdd{BC_KERNELS(AddF), false, false, nullptr, R::none, "AddBackward0", {}, {}, add_grad};
const BinaryRule kSub{BC_KERNELS(SubF), false, false, nullptr, R::none, "SubBackward0", {}, {}, sub_grad};
const BinaryRule kMul{BC_KERNELS(MulF), false, false, nullptr, R::none, "MulBackward0",
                      {false, true, false}, {true, false, false}, mul_grad};
const BinaryRule kDiv{BC_KERNELS(DivF), true, false, nullptr, R::none, "DivBackward0",
                      {false, true, false}, {true, true, false}, div_grad};
const BinaryRule kPow{BC_KERNELS(PowF), false, false, "pow", R::bool_, "PowBackward1",
                      {true, true, false}, {true, true, true}, pow_grad};
const BinaryRule kAtan2{BC_KERNELS(Atan2F), true, false, nullptr, R::none, "Atan2Backward0",
                        {true, true, false}, {true, true, false}, atan2_grad};
const BinaryRule kFmod{BC_KERNELS(FmodF), false, false, "fmod_cpu", R::bool_, "FmodBackward1",
                       {}, {true, true, false}, fmod_grad};
const BinaryRule kRemainder{BC_KERNELS(RemainderF), false, false, "remainder_cpu", R::bool_, "RemainderBackward1",
                            {}, {true, true, false}, remainder_grad};
const BinaryRule kMaximum{BC_KERNELS(ExtremumF<true>), false, false, nullptr, R::none, "MaximumBackward0",
                          {true, true, false}, {true, true, false}, extremum_grad<true>};
const BinaryRule kMinimum{BC_KERNELS(ExtremumF<false>), false, false, nullptr, R::none, "MinimumBackward0",
                          {true, true, false}, {true, true, false}, extremum_grad<false>};
const BinaryRule kEq{BC_KERNELS(EqF), false, true, nullptr, R::none, "EqBackward1", {}, {}, nullptr};
const BinaryRule kNe{BC_KERNELS(NeF), false, true, nullptr, R::none, "NeBackward1", {}, {}, nullptr};
const BinaryRule kLt{BC_KERNELS(LtF), false, true, nullptr, R::none, "LtBackward1", {}, {}, nullptr};
const BinaryRule kLe{BC_KERNELS(LeF), false, true, nullptr, R::none, "LeBackward1", {}, {}, nullptr};
const BinaryRule kGt{BC_KERNELS(GtF), false, true, nullptr, R::none, "GtBackward1", {}, {}, nullptr};
const BinaryRule kGe{BC_KERNELS(GeF), false, true, nullptr, R::none, "GeBackward1", {}, {}, nullptr};
const BinaryRule kHypot{BC_KERNELS(HypotF), false, false, "hypot_cpu", R::bool_integer, "HypotBackward0",
                        {true, false, true}, {false, true, true}, hypot_grad};
const BinaryRule kFloorDivide{BC_KERNELS(FloorDivideF), false, false, "div_floor_cpu", R::bool_, "NotImplemented",
                              {}, {}, nullptr};  // no formula: LibTorch's node refuses at backward
// No node: integers never require grad, and LibTorch records none for the logical ops (nor for their in-place forms).
const BinaryRule kBitwiseAnd{BC_KERNELS(BitAndF), false, false, "bitwise_and_cpu", R::floating, nullptr, {}, {},
                             nullptr};
const BinaryRule kBitwiseOr{BC_KERNELS(BitOrF), false, false, "bitwise_or_cpu", R::floating, nullptr, {}, {}, nullptr};
const BinaryRule kBitwiseXor{BC_KERNELS(BitXorF), false, false, "bitwise_xor_cpu", R::floating, nullptr, {}, {},
                             nullptr};
const BinaryRule kShiftLeft{BC_KERNELS(ShiftLeftF<int64_t>), false, false, "lshift_cpu", R::bool_floating, nullptr,
                            {}, {}, nullptr, Kernels<ShiftLeftF<int32_t>>::i64};
const BinaryRule kShiftRight{BC_KERNELS(ShiftRightF<int64_t>), false, false, "rshift_cpu", R::bool_floating, nullptr,
                             {}, {}, nullptr, Kernels<ShiftRightF<int32_t>>::i64};
const BinaryRule kLogicalAnd{BC_KERNELS(LogicalAndF), false, true, nullptr, R::none, nullptr, {}, {}, nullptr};
const BinaryRule kLogicalOr{BC_KERNELS(LogicalOrF), false, true, nullptr, R::none, nullptr, {}, {}, nullptr};
const BinaryRule kLogicalXor{BC_KERNELS(LogicalXorF), false, true, nullptr, R::none, nullptr, {}, {}, nullptr};
const BinaryRule kLogaddexp{BC_KERNELS(LogaddexpF), false, false, "logaddexp_cpu", R::bool_integer,
                            "LogaddexpBackward0", {true, true, false}, {true, true, false}, logaddexp_grad};
#undef BC_KERNELS

// ---- fill_ and zero_: the value written (engine/fill.h), then the backward: self's old value is overwritten, so
// its gradient is zeros (derivatives.yaml: fill_.Scalar and zero_, `self: zeros_like(grad)`). ----
Tensor zeros_like_grad(const Tensor& grad) { return Tensor::zeros(grad.sizes(), grad.dtype()); }
const FillRule kFill{true, "FillBackward2", zeros_like_grad};
const FillRule kZero{false, "ZeroBackward0", zeros_like_grad};

// ---- The table: one entry per op, in the enum's order. ----
// How often the generators draw each op is theirs to say (properties/op_weights.h).
std::vector<OpEntry> make_table() {
  using F = Family;
  const std::vector<const char*> none, alpha = {"alpha"}, value = {"value"}, fused = {"beta", "alpha"};
  std::vector<OpEntry> t = {
      {Op::add, "add", 2, F::elementwise, Op::add_, {}, &kAdd, alpha, "a + alpha * b"},
      {Op::sub, "sub", 2, F::elementwise, Op::sub_, {}, &kSub, alpha, "a - alpha * b"},
      {Op::mul, "mul", 2, F::elementwise, Op::mul_, {}, &kMul, none, "a * b"},
      {Op::div, "div", 2, F::elementwise, Op::div_, {}, &kDiv, none, "true division"},
      {Op::pow, "pow", 2, F::elementwise, Op::pow_, {}, &kPow, none, "a ** b"},
      {Op::atan2, "atan2", 2, F::elementwise, Op::atan2_, {}, &kAtan2, none, "atan2(a, b)"},
      {Op::fmod, "fmod", 2, F::elementwise, Op::fmod_, {}, &kFmod, none, "C's fmod (truncated)"},
      {Op::remainder, "remainder", 2, F::elementwise, Op::remainder_, {}, &kRemainder, none,
       "floor-mod: the divisor's sign"},
      {Op::maximum, "maximum", 2, F::elementwise, {}, {}, &kMaximum, none, "max, NaN wins"},
      {Op::minimum, "minimum", 2, F::elementwise, {}, {}, &kMinimum, none, "min, NaN wins"},
      {Op::eq, "eq", 2, F::elementwise, Op::eq_, {}, &kEq, none, "a == b"},
      {Op::ne, "ne", 2, F::elementwise, Op::ne_, {}, &kNe, none, "a != b"},
      {Op::lt, "lt", 2, F::elementwise, Op::lt_, {}, &kLt, none, "a < b"},
      {Op::le, "le", 2, F::elementwise, Op::le_, {}, &kLe, none, "a <= b"},
      {Op::gt, "gt", 2, F::elementwise, Op::gt_, {}, &kGt, none, "a > b"},
      {Op::ge, "ge", 2, F::elementwise, Op::ge_, {}, &kGe, none, "a >= b"},
      {Op::hypot, "hypot", 2, F::elementwise, Op::hypot_, {}, &kHypot, none, "sqrt(a*a + b*b)"},
      {Op::floor_divide, "floor_divide", 2, F::elementwise, Op::floor_divide_, {}, &kFloorDivide, none,
       "a / b rounded towards -inf (no gradient)"},
      {Op::bitwise_and, "bitwise_and", 2, F::elementwise, Op::bitwise_and_, {}, &kBitwiseAnd, none,
       "a & b (integers and bool)"},
      {Op::bitwise_or, "bitwise_or", 2, F::elementwise, Op::bitwise_or_, {}, &kBitwiseOr, none,
       "a | b (integers and bool)"},
      {Op::bitwise_xor, "bitwise_xor", 2, F::elementwise, Op::bitwise_xor_, {}, &kBitwiseXor, none,
       "a ^ b (integers and bool)"},
      {Op::bitwise_left_shift, "bitwise_left_shift", 2, F::elementwise, Op::bitwise_left_shift_, {}, &kShiftLeft,
       none, "a << b (integers; the count modulo 32 or 64)"},
      {Op::bitwise_right_shift, "bitwise_right_shift", 2, F::elementwise, Op::bitwise_right_shift_, {}, &kShiftRight,
       none, "a >> b, arithmetic (integers; the count modulo 32 or 64)"},
      {Op::logical_and, "logical_and", 2, F::elementwise, Op::logical_and_, {}, &kLogicalAnd, none,
       "a && b, bool (any dtype: not zero is true)"},
      {Op::logical_or, "logical_or", 2, F::elementwise, Op::logical_or_, {}, &kLogicalOr, none,
       "a || b, bool (any dtype: not zero is true)"},
      {Op::logical_xor, "logical_xor", 2, F::elementwise, Op::logical_xor_, {}, &kLogicalXor, none,
       "a != b as truth values, bool"},
      {Op::logaddexp, "logaddexp", 2, F::elementwise, {}, {}, &kLogaddexp, none,
       "log(exp(a) + exp(b)) (floating only)"},
  };
  // The in-place forms of the binary ops share their rule.
  const Op inplace_binary[] = {Op::add_, Op::sub_, Op::mul_, Op::div_, Op::pow_, Op::atan2_, Op::fmod_,
                               Op::remainder_, Op::eq_, Op::ne_, Op::lt_, Op::le_, Op::gt_, Op::ge_, Op::hypot_,
                               Op::floor_divide_, Op::bitwise_and_, Op::bitwise_or_, Op::bitwise_xor_,
                               Op::bitwise_left_shift_, Op::bitwise_right_shift_, Op::logical_and_, Op::logical_or_,
                               Op::logical_xor_};
  static std::vector<std::string> inplace_names;  // storage for the names ("add_")
  inplace_names.reserve(std::size(inplace_binary));
  for (const Op in_place : inplace_binary) {
    const OpEntry* base = nullptr;
    for (const OpEntry& e : t)
      if (e.inplace == in_place) base = &e;
    inplace_names.push_back(std::string(base->name) + "_");
    t.push_back({in_place, inplace_names.back().c_str(), 2, F::inplace, {}, base->op, base->binary, base->scalars,
                 "in place"});
  }
  // The unary ops; no in-place twins yet.
  const auto unary = [&](Op o, const char* name, const UnaryRule* rule, const char* summary) {
    return OpEntry{o, name, 1, F::elementwise, {}, {}, nullptr, none, summary,
                   DTypeRule::independent, rule};
  };
  const std::vector<OpEntry> rest = {
      unary(Op::neg, "neg", &kNeg, "-a"),
      unary(Op::abs, "abs", &kAbs, "|a|"),
      unary(Op::sqrt, "sqrt", &kSqrt, "square root (integers: float32)"),
      unary(Op::exp, "exp", &kExp, "e ** a (integers: float32)"),
      unary(Op::log, "log", &kLog, "natural log (integers: float32)"),
      unary(Op::sign, "sign", &kSign, "-1, 0 or 1 (NaN: 0)"),
      unary(Op::reciprocal, "reciprocal", &kReciprocal, "1 / a (integers: float32)"),
      {Op::lerp, "lerp", 3, F::elementwise, Op::lerp_, {}, nullptr, none,
       "start + weight * (end - start)", DTypeRule::one_dtype},
      {Op::lerp_, "lerp_", 3, F::inplace, {}, Op::lerp, nullptr, none, "in place",
       DTypeRule::one_dtype},
      {Op::where, "where", 3, F::elementwise, {}, {}, nullptr, none, "cond ? a : b",
       DTypeRule::bool_condition},
      {Op::addcmul, "addcmul", 3, F::elementwise, Op::addcmul_, {}, nullptr, value,
       "c + value * a * b"},
      {Op::addcdiv, "addcdiv", 3, F::elementwise, Op::addcdiv_, {}, nullptr, value,
       "c + value * a / b"},
      {Op::addcmul_, "addcmul_", 3, F::inplace, {}, Op::addcmul, nullptr, value, "in place"},
      {Op::addcdiv_, "addcdiv_", 3, F::inplace, {}, Op::addcdiv, nullptr, value, "in place"},
      {Op::unfused_addcmul, "unfused_addcmul", 3, F::unfused, Op::unfused_addcmul_, {}, nullptr, value,
       "add(c, mul(a, b), alpha=value)"},
      {Op::unfused_addcdiv, "unfused_addcdiv", 3, F::unfused, Op::unfused_addcdiv_, {}, nullptr, value,
       "add(c, div(a, b), alpha=value)"},
      {Op::unfused_addcmul_, "unfused_addcmul_", 3, F::unfused, {}, Op::unfused_addcmul, nullptr, value,
       "c.add_(mul(a, b), alpha=value)"},
      {Op::unfused_addcdiv_, "unfused_addcdiv_", 3, F::unfused, {}, Op::unfused_addcdiv, nullptr, value,
       "c.add_(div(a, b), alpha=value)"},
      {Op::broadcast_shapes, "broadcast_shapes", -1, F::broadcast_shapes, {}, {}, nullptr, none,
       "the broadcast of any number of shapes"},
      {Op::expand, "expand", 2, F::expand, {}, {}, nullptr, none, "shape 0 expanded to shape 1"},
      {Op::sum_to, "sum_to", 2, F::sum_to, {}, {}, nullptr, none, "shape 0 summed to shape 1"},
      {Op::matmul, "matmul", 2, F::matmul, {}, {}, nullptr, none, "NumPy's matmul, batch dims broadcast"},
      {Op::mm, "mm", 2, F::matmul, {}, {}, nullptr, none, "[n, k] @ [k, m]"},
      {Op::bmm, "bmm", 2, F::matmul, {}, {}, nullptr, none, "[b, n, k] @ [b, k, m]"},
      {Op::mv, "mv", 2, F::matmul, {}, {}, nullptr, none, "[n, k] @ [k]"},
      {Op::dot, "dot", 2, F::matmul, {}, {}, nullptr, none, "[k] . [k]"},
      {Op::outer, "outer", 2, F::matmul, {}, {}, nullptr, none, "[n] x [m]"},
      {Op::addmm, "addmm", 3, F::fused, Op::addmm_, {}, nullptr, fused, "beta * c + alpha * mm(a, b)"},
      {Op::addmv, "addmv", 3, F::fused, Op::addmv_, {}, nullptr, fused, "beta * c + alpha * mv(a, b)"},
      {Op::addr, "addr", 3, F::fused, Op::addr_, {}, nullptr, fused, "beta * c + alpha * outer(a, b)"},
      {Op::baddbmm, "baddbmm", 3, F::fused, Op::baddbmm_, {}, nullptr, fused, "beta * c + alpha * bmm(a, b)"},
      {Op::addbmm, "addbmm", 3, F::fused, Op::addbmm_, {}, nullptr, fused,
       "beta * c + alpha * (sum over the batch of bmm(a, b))"},
      {Op::addmm_, "addmm_", 3, F::fused, {}, Op::addmm, nullptr, fused, "in place"},
      {Op::addmv_, "addmv_", 3, F::fused, {}, Op::addmv, nullptr, fused, "in place"},
      {Op::addr_, "addr_", 3, F::fused, {}, Op::addr, nullptr, fused, "in place"},
      {Op::baddbmm_, "baddbmm_", 3, F::fused, {}, Op::baddbmm, nullptr, fused, "in place"},
      {Op::addbmm_, "addbmm_", 3, F::fused, {}, Op::addbmm, nullptr, fused, "in place"},
      {Op::diamond, "diamond", 2, F::autograd, {}, {}, nullptr, none,
       "(a + b) * a: a reaches the result by two paths"},
      {Op::dist, "dist", 2, F::reduction, {}, {}, nullptr, none,
       "the 2-norm of a - b (broadcast), a 0-d tensor"},
      {Op::graph, "graph", -1, F::autograd, {}, {}, nullptr, none,
       "a program of 1-4 pointwise ops over the inputs (the case's \"program\")"},
  };
  t.insert(t.end(), rest.begin(), rest.end());
  // The reductions over dims, drawn by reduction_case().
  const auto reduce = [&](Op o, const char* name, const char* summary) {
    return OpEntry{o,       name, 1, F::reduce_dims, {}, {}, nullptr, none, summary,
                   DTypeRule::independent, nullptr, &reduction_rule_of(o)};
  };
  const std::vector<OpEntry> reductions = {
      reduce(Op::sum, "sum", "sum over dims (all when none; dim=[] too), keepdim, dtype="),
      reduce(Op::mean, "mean", "mean over dims (floating only), keepdim, dtype="),
      reduce(Op::amax, "amax", "max over dims, ties share the gradient, keepdim"),
      reduce(Op::amin, "amin", "min over dims, ties share the gradient, keepdim"),
      reduce(Op::prod, "prod", "product over one dim or all, keepdim, dtype="),
  };
  t.insert(t.end(), reductions.begin(), reductions.end());
  // fill_ and zero_: values drawn by fill_case() (values_agree, properties/fill_gen.h), in place on a leaf (or a
  // view of one) by autograd_inplace_agree. A self that requires grad is always a leaf or a view of one in a case,
  // so grads_agree has nothing to draw: the zero gradient (FillBackward2, ZeroBackward0) is the engine's formula,
  // unit-tested.
  const auto fill = [&](Op o, const char* name, const std::vector<const char*>& scalars, const FillRule* rule,
                        const char* summary) {
    return OpEntry{o,       name, 1, F::fill, {}, {}, nullptr, scalars, summary,
                   DTypeRule::independent, nullptr, nullptr, rule};
  };
  t.push_back(fill(Op::fill_, "fill_", value, &kFill, "every element of self set to value (checked conversion)"));
  t.push_back(fill(Op::zero_, "zero_", none, &kZero, "every element of self set to 0"));
  return t;
}

// Sorted into the enum's order; each entry's position is checked against its op.
std::vector<OpEntry> ordered_table() {
  std::vector<OpEntry> t = make_table();
  std::vector<OpEntry> out;
  out.reserve(t.size());
  for (int k = 0; k < kOpCount; ++k)
    for (const OpEntry& e : t)
      if (static_cast<int>(e.op) == k) out.push_back(e);
  if (out.size() != static_cast<size_t>(kOpCount) || t.size() != out.size())
    throw std::logic_error("engine/op_table.cpp: every Op needs exactly one entry");
  return out;
}

}  // namespace

const char* to_string(Family f) {
  switch (f) {
    case Family::elementwise: return "elementwise";
    case Family::inplace: return "inplace";
    case Family::broadcast_shapes: return "broadcast_shapes";
    case Family::expand: return "expand";
    case Family::sum_to: return "sum_to";
    case Family::matmul: return "matmul";
    case Family::fused: return "fused";
    case Family::unfused: return "unfused";
    case Family::autograd: return "autograd";
    case Family::reduction: return "reduction";
    case Family::reduce_dims: return "reduce_dims";
    case Family::fill: return "fill";
  }
  return "?";
}

bool computes_values(Family f) {
  switch (f) {
    case Family::broadcast_shapes: case Family::expand: case Family::sum_to: return false;
    case Family::elementwise: case Family::inplace: case Family::matmul: case Family::fused: case Family::unfused:
    case Family::autograd: case Family::reduction: case Family::reduce_dims: case Family::fill: return true;
  }
  return false;
}

const std::vector<OpEntry>& op_table() {
  static const std::vector<OpEntry> table = ordered_table();
  return table;
}

const OpEntry& entry(Op op) { return op_table()[static_cast<size_t>(op)]; }
const char* to_string(Op op) { return entry(op).name; }

std::optional<Op> op_from_name(const std::string& name) {
  static const std::unordered_map<std::string, Op> by_name = [] {
    std::unordered_map<std::string, Op> m;
    for (const OpEntry& e : op_table()) m.emplace(e.name, e.op);
    return m;
  }();
  const auto it = by_name.find(name);
  if (it == by_name.end()) return std::nullopt;
  return it->second;
}

bool is_inplace(Op op) { return entry(op).base.has_value() || entry(op).family == Family::fill; }
Op out_of_place(Op op) { return entry(op).base.value_or(op); }
std::optional<ProductOp> product_op(Op op) {
  static const std::pair<Op, ProductOp> products[] = {
      {Op::matmul, ProductOp::matmul}, {Op::mm, ProductOp::mm},       {Op::bmm, ProductOp::bmm},
      {Op::mv, ProductOp::mv},         {Op::dot, ProductOp::dot},     {Op::outer, ProductOp::outer},
      {Op::addmm, ProductOp::addmm},   {Op::addmv, ProductOp::addmv}, {Op::addr, ProductOp::addr},
      {Op::baddbmm, ProductOp::baddbmm}, {Op::addbmm, ProductOp::addbmm}};
  const Op base = out_of_place(op);
  for (const auto& [o, product] : products)
    if (o == base) return product;
  return std::nullopt;
}

bool takes_scalar(Op op, const std::string& name) {
  for (const char* s : entry(op).scalars)
    if (name == s) return true;
  return false;
}

std::optional<Op> unfused_form(Op op) {
  static const std::pair<Op, Op> forms[] = {{Op::addcmul, Op::unfused_addcmul},
                                            {Op::addcdiv, Op::unfused_addcdiv},
                                            {Op::addcmul_, Op::unfused_addcmul_},
                                            {Op::addcdiv_, Op::unfused_addcdiv_}};
  for (const auto& [fused, unfused] : forms)
    if (fused == op) return unfused;
  return std::nullopt;
}
const BinaryRule* binary_rule(Op op) { return entry(op).binary; }
const UnaryRule* unary_rule(Op op) { return entry(op).unary; }
const ReductionRule* reduction_rule(Op op) { return entry(op).reduction; }
const FillRule* fill_rule(Op op) { return entry(op).fill; }
bool is_comparison(Op op) { return entry(op).binary && entry(op).binary->comparison; }

const char* half_kernel(Op op) {
  // bfloat16 has every one of these kernels in 1.13; float16 lacks them on CPU (the vml unary kernels, atan2,
  // hypot, lerp, addcmul/addcdiv, logaddexp).
  static const std::pair<Op, const char*> refused[] = {
      {Op::atan2, "atan2_cpu"},     {Op::hypot, "hypot_cpu"},         {Op::sqrt, "sqrt_vml_cpu"},
      {Op::exp, "exp_vml_cpu"},     {Op::log, "log_vml_cpu"},         {Op::lerp, "lerp_kernel_tensor"},
      {Op::addcmul, "addcmul_cpu_out"}, {Op::addcdiv, "addcdiv_cpu_out"}, {Op::logaddexp, "logaddexp_cpu"}};
  const Op base = out_of_place(op);
  for (const auto& [o, kernel] : refused)
    if (o == base) return kernel;
  return nullptr;
}

std::optional<bool> in_op_group(const std::string& group, Op op) {
  if (group == "@inplace") return is_inplace(op);
  if (group == "@pointwise_inplace") return entry(op).family == Family::inplace;
  if (group == "@fused") return entry(op).family == Family::fused;
  if (group == "@products") return entry(op).family == Family::fused || entry(op).family == Family::matmul;
  return std::nullopt;
}

std::string op_group_names() { return "@inplace, @pointwise_inplace, @fused, @products"; }

}  // namespace bc
