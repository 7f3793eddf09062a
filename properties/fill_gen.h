// The generator of fill_ and zero_ cases (drawn by values_agree): self of rank 0-4 in any dtype and layout, an
// expanded or overlapping self (whose elements share memory) one time in two, and fill_'s value among 0, 0.0, -0.0,
// NaN, +-inf, ordinary values and values out of range for some dtype. Shrinks towards fill_, contiguous float32
// and the value 2.
#pragma once

#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc::gen {

rc::Gen<Case> fill_case();

// The generator classes of a fill case: "fill value 0" (either sign, int or float), "fill value -0.0",
// "fill value NaN", "fill value inf" (either sign), "fill value out of range" (for self's dtype, as c10 checks it),
// "fill self shares memory".
std::vector<std::string> fill_tags(const Case& c);

}  // namespace bc::gen
