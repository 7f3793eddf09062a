// Drawing a case's value class (harness/value_classes.h) by construction: after everything else about the case, a
// weighted choice among plain and the classes that apply to some operand's dtype, shrinking towards plain.
#pragma once

#include <cstdint>

#include "harness/case.h"

namespace bc::gen {

// Sets c.values->value_class (left absent for plain) from the classes that apply to one of c.dtypes: plain with
// `plain_weight`, each applicable class with weight 1. A case without values is left alone.
void draw_value_class(Case& c, uint64_t plain_weight);

}  // namespace bc::gen
