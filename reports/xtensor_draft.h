// An xtensor GoogleTest test, as text, for a shape-level case of float32 zeros (the elementwise operators, their
// in-place forms and broadcast views): it asserts the rule's outcome, so it fails where xtensor departs. Other
// cases get a comment saying why there is no draft.
#pragma once

#include <string>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// The TEST(BroadcheckRegression, <name>_xtensor) block with its #include lines; `name` must be a C++ identifier.
std::string xtensor_draft(const Case& c, const Outcome& rule, const std::string& name);

}  // namespace bc
