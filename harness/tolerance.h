// Comparing result values across implementations: tolerances per dtype in one place, following torch.testing's
// defaults (float32: rtol 1.3e-6, atol 1e-5; float64: rtol 1e-7, atol 1e-7; float16: 1e-3, 1e-5; bfloat16: 1.6e-2,
// 1e-5, torch/testing/_comparison.py's _DTYPE_PRECISIONS; integers and bool exactly), NaN equal to
// NaN, and a mismatch reported the way torch.testing reports it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/dtype.h"
#include "engine/shape.h"
#include "harness/values.h"

namespace bc {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};
Tolerance tolerance_for(DType dtype);
// The floating dtype with the fewest significant bits among `dtypes` (an integer or bool counts as float32, the
// dtype it computes in where it computes in float); float64 for none.
DType least_precise(const std::vector<DType>& dtypes);

// The index of element `flat` (row-major) of a tensor of `shape`.
Shape unravel(int64_t flat, const Shape& shape);

struct ValueMismatch {
  long mismatched = 0, total = 0;
  double max_abs = 0, max_rel = 0;
  Shape abs_at, rel_at;  // the index of each greatest difference
  std::string text;      // "Mismatched elements: 2 / 6 (33.3%) ..." as torch.testing words it
};

// nullopt when `actual` is close to `expected` everywhere (|a - e| <= atol + rtol * |e|, NaN equal NaN, an
// infinity only equal to itself). Integers (both sides integers: harness/values.h) are compared exactly, as int64,
// whatever the tolerance.
std::optional<ValueMismatch> compare_values(const Values& expected, const Values& actual, DType dtype, const Shape& shape);
std::optional<ValueMismatch> compare_values(const Values& expected, const Values& actual, Tolerance tol, const Shape& shape);

// Gradients: a gradient is only as precise as the least precise dtype its formula computed in, whatever its own
// dtype (a float64 input's gradient through a float32 self is float32-accurate), and a gradient summed from
// `summed` broadcast elements per input element carries rounding that grows like sqrt(summed) (LibTorch's own
// float32 at::sum_to misses the fixed tolerance on long sums: docs/notes/sum-to-kernel.md). So: the float32
// tolerance if any of the case's dtypes is not float64, else float64's; both scaled by sqrt(summed).
Tolerance gradient_tolerance(const std::vector<DType>& case_dtypes, int64_t summed);

}  // namespace bc
