// The generator of reduction cases (sum, mean, amax, amin, prod over a list of dims), built by construction: a
// valid set of dims in positive or negative form (ascending, sometimes descending), no dims, the empty list, or a
// near miss (one dim repeated in its other form, one dim out of range); keepdim either way; dtype= sometimes (for
// the ops that take it); an input of any dtype; shapes of rank 0-4 with size-0 dims; values (special ones or a
// value class sometimes), and gradients of a floating input a third of the time. Shrinks towards sum, a valid ascending set, float32, contiguous, keepdim
// false, no dtype=, no gradient, then smaller shapes.
#pragma once

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc::gen {

rc::Gen<Case> reduction_case();

// The generator classes a reduction case belongs to, from its arguments: "no dims", "empty dims", "negative dim",
// "repeated dim", "out-of-range dim", "unsorted dims", "keepdim", "dtype=".
std::vector<std::string> reduction_tags(const Case& c);

}  // namespace bc::gen
