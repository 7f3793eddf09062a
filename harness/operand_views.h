// How a case's operands are laid out, without their values: plan_operands' plans (harness/operands.h) with
// base_values left empty, for those who only ask about layouts, shapes and strides (coverage, case conditions,
// tags, refusals), at a fraction of the cost of drawing the values.
#pragma once

#include <vector>

#include "harness/operands.h"

namespace bc {

std::vector<OperandPlan> plan_views(const Case& c);

}  // namespace bc
