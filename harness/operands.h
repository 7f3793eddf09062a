// How to build each operand of a case, the same way in every library: a fresh contiguous base tensor filled with
// deterministic values, then a view of it in the case's layout. Library-neutral, so that the engine, LibTorch and
// xtensor see the same values in the same memory layout (docs/notes/values-and-layouts.md).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "harness/case.h"

namespace bc {

struct OperandPlan {
  DType dtype = DType::float32;
  Layout layout = Layout::contiguous;  // the layout actually built (see plan_operands for the fallbacks)
  Shape shape;                         // what the op sees
  Shape base_shape;                    // what is allocated (for an overlapping operand: nothing, it views another)
  Values base_values;                  // row-major values of the base, in `dtype` (harness/values.h: exact)
  int64_t offset = 0;                  // the view, in elements of the base: as_strided(shape, strides, offset)
  Shape strides;
  int views_operand = -1;              // overlapping: the operand whose base storage this views
  // A number operand (Case::numbers): shape [], a base of one element holding it exactly in its kind's dtype; each
  // implementation passes it as its library takes a number (LibTorch's Scalar, a C++ or Python scalar).
  std::optional<Number> number;
};

// One plan per operand. A layout that cannot apply to a shape falls back to contiguous, and `layout` says so:
// transposed needs rank >= 2, strided rank >= 1, expanded a dim of size > 1; overlapping needs an earlier operand
// whose storage holds at least as many elements, or, for the first operand (which views its own storage with every
// stride 1, so that [2, 3] reads elements 0-2 and 1-3), two dims of size > 1.
std::vector<OperandPlan> plan_operands(const Case& c);

// The values the op sees through the view, row-major, given the base values of the storage it views.
Values view_values(const OperandPlan& plan, const Values& storage);
// The values operand k of `plans` sees: view_values over its own base, or over the base of the operand whose
// storage it views (an overlapping operand has no base of its own).
Values seen_values(const std::vector<OperandPlan>& plans, size_t k);

// The deterministic values of one operand's base, in `dtype`: zeros without a ValueSpec.
Values base_values(const Case& c, size_t operand, DType dtype, int64_t count);

// The upstream gradient for backward, row-major, in `dtype`: ones, or values drawn from the case's grad_seed (no
// specials).
Values upstream_values(const Case& c, DType dtype, int64_t count);

}  // namespace bc
