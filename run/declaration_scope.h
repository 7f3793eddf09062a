// Which cases count towards a declaration's staleness: those in its scope that it could explain, checked the way
// it is matched (a declaration in scope of a run's cases that never explained one is stale: harness/run_record.h).
#pragma once

#include "harness/known_divergence.h"
#include "harness/run_record.h"
#include "properties/registry.h"

namespace bc {

// Whether a case checked this way could be explained by the declaration at all: an equivalence declaration only by
// the equivalence check, a finite-difference one only by that check, a gradient one only in a gradient case, the
// others only where implementations' outcomes are compared; and numbers (values, gradients) only where the rule did
// what its `expected` says and its implementation and another voter both computed some, so that a declaration held
// against an optional voter's numbers is not stale when that voter is absent.
bool could_explain(const Declaration& d, Check check, const CaseRecord& r);

}  // namespace bc
