// The xtensor oracle on value-level cases: each operand an xt::adapt over a fresh buffer, the op as xtensor's own
// operator or function, the result evaluated into an xarray of whatever value type xtensor's expression has (C++'s
// arithmetic conversions, not PyTorch's promotion). Contiguous operands only for now (see run_xtensor_values).
// Ops xtensor has no function for (remainder's floor-mod, lerp) are unsupported, never emulated.
#pragma once

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {
Outcome run_xtensor_values(const Case& c);
}
