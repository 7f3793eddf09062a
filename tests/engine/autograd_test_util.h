// Shared by the autograd tests: a leaf from values, and every input's gradient after backward with ones.
#pragma once

#include <vector>

#include <gtest/gtest.h>

#include "engine/autograd.h"

namespace bc::ag::testing {

inline Var var(const Shape& shape, std::vector<double> v, bool rg = true, DType t = DType::float64) {
  return leaf(Tensor::from_values(shape, t, v), rg).value();
}
// A 1-D leaf (a name of its own: var({}, {1}) must not read as a 1-D leaf of no values).
inline Var vec(std::vector<double> v, bool rg = true, DType t = DType::float64) {
  const Shape shape{static_cast<int64_t>(v.size())};
  return var(shape, std::move(v), rg, t);
}

using G = std::vector<std::vector<double>>;

// Backward from y with ones; each input's gradient (empty when it got none). Both steps must succeed.
inline G grads(const Result<Var>& y, const std::vector<Var>& inputs) {
  EXPECT_TRUE(y.ok()) << y.error().message;
  if (!y.ok()) return {};
  const Tensor& out = y.value()->data;
  const Result<bool> b = backward(
      y.value(), Tensor::from_values(out.sizes(), out.dtype(), std::vector<double>(static_cast<size_t>(out.numel()), 1.0)));
  EXPECT_TRUE(b.ok()) << b.error().message;
  G g;
  for (const Var& v : inputs) g.push_back(v->grad ? v->grad->to_doubles() : std::vector<double>{});
  return g;
}

}  // namespace bc::ag::testing
