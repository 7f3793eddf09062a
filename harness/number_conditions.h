// Named facts about a case's number operands (harness/case.h: Case::numbers) that a declaration can require
// ("when", harness/case_conditions.h), computed from the case alone, independently of any library's rules.
#pragma once

#include "harness/case.h"

namespace bc {

// "number_operand": some operand is a number.
// "number_above_category": a number's category (bool < int < float) is above that of every tensor operand the op
// computes with (where's condition aside), or a float meets no tensor at all (where(c, 2.5, 3)): PyTorch gives the
// default dtype of the number's category where other libraries keep the number's own width.
bool number_above_category(const Case& c);
// "number_beyond_dtype": a number of the tensors' category or below does not fit their dtype as a value: an int
// outside an integer dtype's range (a negative one for uint8), a finite float or an int beyond a floating dtype's
// largest value. PyTorch converts it to the dtype (it wraps, or becomes inf) where other libraries widen the result.
bool number_beyond_dtype(const Case& c);

}  // namespace bc
