// The xtensor oracle on value-level cases: each operand a real xtensor view (xt::transpose, xt::strided_view,
// xt::broadcast) of an xt::adapt over a fresh buffer (oracles/xtensor_operands.h), the op as xtensor's own operator,
// function or computed assignment, the result evaluated into an xarray of whatever value type xtensor's expression
// has (C++'s arithmetic conversions, not PyTorch's promotion). Ops xtensor has no function for (lerp) are
// unsupported, never emulated; a function of the op's name runs with xtensor's meaning
// (docs/notes/values-and-layouts.md).
#pragma once

#include "harness/case.h"
#include "harness/outcome.h"
#include "oracles/binding_table.h"

namespace bc {
Outcome run_xtensor_values(const Case& c);
// The problems of xtensor's binding table (oracles/binding_table.h): none when every op has its cell.
const BindingProblems& xtensor_binding_problems();
// A case with a number operand (oracles/xtensor_numbers.cpp): `a + 2.5`, the number a C++ scalar.
Outcome run_xtensor_numbers(const Case& c);
}
