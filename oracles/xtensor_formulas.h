// The xtensor gradient and graph oracles' formulas (xtensor_grads.h), read off the pointwise rows
// (xtensor_pointwise.h) in one translation unit: for an op with a gradient there, its forward's dtype over the
// case's operand types, its forward with PyTorch's meaning and each operand's gradient, computed in the computation
// dtype's C++ type (float for float32, as a user's xt::xarray<float> would be; double otherwise) on arguments
// already converted to it, and returned in double.
#pragma once

#include <optional>
#include <vector>

#include <xtensor/xarray.hpp>

#include "harness/case.h"

namespace bc::xtv {

using Doubles = xt::xarray<double>;

// Whether the rows give the op (or its out-of-place form) a gradient.
bool has_formula(Op op);
// The value type of xtensor's expression for the op over the case's operand types (C++'s conversions; alpha or
// value as the case writes it), as the value oracle reports it; nullopt where it has no dtype (an int from bool +
// bool) or xtensor no such function.
std::optional<DType> formula_type(Op op, const Case& c);
// The op's forward on operands broadcast to one shape, in `compute`'s C++ type (alpha: add/sub's alpha or
// addcmul/addcdiv's value, converted to that type).
Doubles formula_forward(Op op, const std::vector<Doubles>& x, DType compute, double alpha);
// Each operand's gradient in the result's shape, from the operands, the result and the upstream gradient.
std::vector<Doubles> formula_grads(Op op, const std::vector<Doubles>& x, const Doubles& r, const Doubles& g,
                                   DType compute, double alpha);
// A comparison's result as 0 and 1, exactly (in double); comparisons have no gradient.
Doubles comparison(Op op, const Doubles& a, const Doubles& b);

}  // namespace bc::xtv
