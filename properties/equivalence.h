// Seed 003's equivalence of a fused pointwise op and its unfused form: addcmul(c, a, b, value) is
// add(c, mul(a, b), alpha=value), addcdiv the same with div, and in place c.add_(mul(a, b), alpha=value). Each
// implementation is held against itself: both forms must have the same outcome kind, shape and dtype, values within
// the dtype's tolerance, and the same gradients (docs/notes/addcmul-equivalence.md).
#pragma once

#include <string>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// The same case with the op replaced by its unfused form ("unfused_addcmul", ...); nullopt for other ops.
std::optional<Case> unfused_twin(const Case& c);

struct EquivalenceDeparture {
  std::string difference;  // "status", "shape", "dtype", "error kind", "values", "grads", "grad values"
  std::string detail;      // what each form gave
};

// How the unfused outcome departs from the fused one, compared in the fixed order; nullopt when equivalent.
std::optional<EquivalenceDeparture> equivalence_departure(const Case& c, const Outcome& fused, const Outcome& unfused);

}  // namespace bc
