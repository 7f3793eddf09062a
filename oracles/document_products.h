// The documents voter's products ([D6]) and fused products ([D7]) (oracles/document_oracle.h): each product's
// shape rule, its values summed exactly in double and rounded once, and its textbook gradients ([D10]).
#pragma once

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc::documents {

// A product op (matmul ... outer) or, `fused`, a fused one (addmm ... addbmm and their in-place forms).
Outcome product(const Case& c, Op op, bool fused);

}  // namespace bc::documents
