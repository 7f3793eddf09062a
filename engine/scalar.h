// A scalar argument (alpha, beta, value) as LibTorch sees it: an integer (a Python int) or a floating value (a
// Python float). LibTorch checks the two differently, e.g. a float alpha is refused for integral tensors.
#pragma once

namespace bc {

struct Scalar {
  double value = 1;
  bool integral = true;
  friend bool operator==(const Scalar& a, const Scalar& b) { return a.value == b.value && a.integral == b.integral; }
};

}  // namespace bc
