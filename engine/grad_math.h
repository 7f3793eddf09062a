// The pointwise math that gradient formulas need beyond elementwise.h: neg and log of a floating tensor, division
// rounded towards zero or towards minus infinity (LibTorch's div with rounding_mode "trunc" / "floor"), and 0-d
// constants. Each computes in the operands' dtype (float32 rounded to float, as LibTorch's kernels do).
#pragma once

#include "engine/tensor.h"

namespace bc {

Tensor neg(const Tensor& t);
Tensor log(const Tensor& t);  // of an integer or bool tensor: float32, as LibTorch's

// a / b rounded, a and b broadcast (they are a differentiable op's inputs, so they broadcast); floating dtypes.
enum class Rounding { trunc, floor };
Tensor div_rounded(const Tensor& a, const Tensor& b, Rounding mode);

// A 0-d tensor holding v, as LibTorch wraps a Python number that meets a tensor of `dtype`.
Tensor scalar_tensor(double v, DType dtype);

}  // namespace bc
