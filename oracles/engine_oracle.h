// The engine oracle: our reference engine's answer for a case.
#pragma once

#include <optional>

#include "oracles/binding_table.h"
#include "oracles/oracle.h"

namespace bc {
std::unique_ptr<Oracle> make_engine_oracle();
// The problems of the engine's binding table (oracles/binding_table.h): none when every op has its cell.
const BindingProblems& engine_binding_problems();

// The upstream gradient a gradient case's backward starts from under the rule: upstream_values (harness/operands.h)
// in the shape and dtype of the engine's result (for an in-place op, self after it; for a graph, its last node).
// nullopt when no backward runs: not a gradient case, an out= form, or the engine's forward is an error.
std::optional<Grad> rule_upstream(const Case& c);
// The engine's outcome for a gradient case whose backward starts from `upstream` (what an adapter is sent), not from
// the one the engine draws itself; an upstream of another shape or dtype than the result's is an error of kind other.
Outcome engine_outcome_from(const Case& c, const Grad& upstream);
}
