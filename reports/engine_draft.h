// A GoogleTest test of broadcheck's own engine, as text, for tests/: it runs one case through the engine oracle and
// asserts the reference's outcome (summary and message), so it fails while the engine departs.
#pragma once

#include <string>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// The TEST(EngineRegression, <name>) block with its #include lines; `name` must be a C++ identifier.
std::string engine_draft(const Case& c, const Outcome& want, const std::string& name);

}  // namespace bc
