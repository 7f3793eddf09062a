// Named facts about a case that a declaration can require ("when"), computed from the case's operand plans by brute
// force and independently of the engine's rules, so that a declaration about one situation cannot explain another.
#pragma once

#include <string>
#include <vector>

#include "harness/case.h"

namespace bc {

// "input_is_self": an input views self's own storage and, broadcast to self's shape, reaches the same element at
// every index (a full overlap, which the in-place rule allows), whatever its strides on dims of size 1.
bool input_is_self(const Case& c);

// "out_given": the case runs the op's out= form (a case "out"); "out_shape_differs": ... into an out whose shape
// differs from the broadcast of the operands' shapes (which LibTorch resizes).
bool out_shape_differs(const Case& c);

// The names a declaration's "when" accepts, and whether `c` has that fact (false for an unknown name).
const std::vector<std::string>& case_condition_names();
bool case_has(const std::string& condition, const Case& c);

}  // namespace bc
