// The out= tensor of a generated pointwise binary case: of the result's shape, of another shape with elements
// (LibTorch resizes it and warns), empty (resized silently), or of the result's size in another shape; of the
// result's dtype or another one (a cast LibTorch may refuse).
#pragma once

#include "harness/case.h"

namespace bc::gen {

// Sets c.out one time in `one_in` for an out-of-place pointwise binary op (other cases are left alone), and tags
// the case "out=" and "out right shape", "out resized", "out empty" or "out reshaped"; one time in three (when it has a
// floating operand) one floating operand requires grad ("out= requires_grad").
void maybe_out(Case& c, uint64_t one_in);

}  // namespace bc::gen
