// A LibTorch GoogleTest test, as text, that runs one case the way the LibTorch oracle does (the same operand
// values, dtypes, views, scalars, call, in-place modification and backward; docs/notes/gradient-cases.md) with
// nothing of broadcheck's, and asserts a given outcome: its error, or its shape, dtype, values and gradients within
// the judge's tolerances. Given LibTorch's own outcome it passes; given the rule LibTorch departs from, it fails
// and shows the difference (tests/reports/torch_draft_replay.cmake holds both).
#pragma once

#include <string>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// The TEST(suite, name) block with its #include lines; `name` must be a C++ identifier.
std::string torch_draft(const Case& c, const Outcome& rule, const std::string& suite, const std::string& name);

// A shape as a C++ braced list, "{2, 3}" (sizes for LibTorch, a shape vector for xtensor).
std::string braced(const Shape& s);

// The LibTorch expression the oracle evaluates for the case, on operands t0, t1, ... ("" when there is none).
std::string torch_call(const Case& c);

}  // namespace bc
