// Generators for the products and the three-operand ops of seed 003, built by construction like shape_gen.h's:
// every choice is drawn smallest or simplest first, so shrinking goes towards the valid branch, the first op,
// float32, contiguous, no special values, and then smaller shapes.
#pragma once

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc::gen {

// matmul, mm, bmm, mv, dot, outer on values: operands in each op's domain (matmul: vectors, matrices and batches
// whose batch dims broadcast), or a near miss: inner dims differ, batch dims conflict (for bmm also a batch of 1,
// which bmm does not broadcast), a rank outside the op's domain. Dtypes (mostly one floating dtype), layouts, and
// a third of the floating cases with gradients.
rc::Gen<Case> product_case();

// addmm, addmv, addr, baddbmm, addbmm, out of place and in place: c broadcasts to the product's shape (or is it,
// or conflicts with it; in place also c narrower than the product), with beta and alpha (0, negative, float),
// near misses on the product's inner dims, and gradients for a third of the floating out-of-place cases.
rc::Gen<Case> fused_case();

// addcmul and addcdiv, out of place and in place, for the equivalence with the unfused add(c, mul(a, b)): three
// broadcastable shapes (in place: c is their broadcast shape, or narrower), a value (integral or fractional, also
// with integer tensors), and gradients for half of the floating cases.
rc::Gen<Case> addc_case();

}  // namespace bc::gen
