// The generator of small graphs (docs/notes/graphs.md): a program of 2-4 pointwise ops of the table over 2-3
// broadcastable float inputs (and sometimes a bool condition), a chain or a diamond, with where and
// maximum/minimum among them, special values sometimes, and inputs requiring grad (a quarter of the cases run
// forward only). Built by construction: every node reads the previous one, so each reaches the result. It shrinks
// as `broadcheck shrink` does (properties/case_shrinks.h): first by dropping nodes, then unused inputs, then shapes.
#pragma once

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc::gen {

rc::Gen<Case> graph_case();

// Whether some node other than the last holds a NaN or an infinity when the engine's tensor ops run the program
// on the case's values (false when the program fails or the case has no values).
bool has_nonfinite_intermediate(const Case& c);

}  // namespace bc::gen
