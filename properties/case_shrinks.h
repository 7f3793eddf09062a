// Shape-level shrinks of any case, with no generator behind it (for `broadcheck shrink` and the graph generator's
// shrink tree): for a graph, drop a node or an input no node reads; drop an operand (where the op takes any
// number), drop a dim, set a size to 1, lower a size. Every candidate is a valid case.
#pragma once

#include <vector>

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc {

std::vector<Case> case_shrink_candidates(const Case& c);
rc::Shrinkable<Case> shrinkable_case(const Case& c);

}  // namespace bc
