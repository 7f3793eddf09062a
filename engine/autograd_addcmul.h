// addcmul and addcdiv on vars (engine/addcmul.h's forward beside LibTorch 1.13's backward formulas):
//   addcmul: c gets grad, a gets grad * (b * value), b gets grad * (a * value);
//   addcdiv: c gets grad, a gets grad * (value / b), b gets -grad * (value * a / (b * b)).
// Each gradient is left in the broadcast shape; backward() sums it to its input's shape.
#pragma once

#include "engine/addcmul.h"
#include "engine/autograd.h"

namespace bc::ag {

Result<Var> addc(AddcOp op, const Var& c, const Var& a, const Var& b, Scalar value = {});
// In place on c: refused first when grad is needed and c is a leaf that requires grad (or a view of one).
Result<Var> addc_(AddcOp op, const Var& c, const Var& a, const Var& b, Scalar value = {});

}  // namespace bc::ag
