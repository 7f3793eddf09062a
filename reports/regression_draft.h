// A regression-test draft for a finding: a GoogleTest test that shows the difference with the library alone
// (LibTorch or xtensor code, no broadcheck), asserting what the rule says. A draft to paste and adapt, not a test
// broadcheck runs.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

// For each implementation that departs (the odd ones out, or LibTorch for a failed document expectation), one
// TEST() against that library; for an engine departure, a test of the engine's shape function.
std::string regression_draft(const CaseRecord& minimal);

}  // namespace bc
