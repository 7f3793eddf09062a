// A scalar argument (alpha, beta, value) as LibTorch sees it: an integer (a Python int) or a floating value (a
// Python float). LibTorch checks the two differently, e.g. a float alpha is refused for integral tensors.
// And a Number: a Python number written where a tensor operand goes (x + 2.5, x.mul_(3), where(c, x, 0.0)), held
// exactly (an int as int64_t, never through a double), which PyTorch wraps in a 0-d tensor of its kind's dtype.
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/dtype.h"

namespace bc {

struct Scalar {
  double value = 1;
  bool integral = true;
  friend bool operator==(const Scalar& a, const Scalar& b) { return a.value == b.value && a.integral == b.integral; }
};

struct Number {
  enum class Kind { boolean, integer, floating };
  Kind kind = Kind::integer;
  int64_t i = 0;  // boolean (0 or 1) and integer
  double f = 0;   // floating
  static Number of_bool(bool b) { return {Kind::boolean, b ? 1 : 0, 0}; }
  static Number of_int(int64_t v) { return {Kind::integer, v, 0}; }
  static Number of_float(double v) { return {Kind::floating, 0, v}; }
  // The dtype of the 0-d tensor PyTorch wraps it in (scalar_to_tensor): bool, int64 or float64.
  DType dtype() const {
    return kind == Kind::boolean ? DType::bool_ : kind == Kind::integer ? DType::int64 : DType::float64;
  }
  // Bit for bit: a NaN equals itself, -0.0 differs from 0.0.
  friend bool operator==(const Number& a, const Number& b) {
    return a.kind == b.kind && a.i == b.i && std::memcmp(&a.f, &b.f, sizeof(double)) == 0;
  }
  friend bool operator!=(const Number& a, const Number& b) { return !(a == b); }
};

}  // namespace bc
