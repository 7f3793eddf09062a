// The generator coverage section of report.html: what the generators produced, per property, by class (rank,
// rank 0, size 0, singleton vs non-singleton, near misses, dtypes, layouts, in-place vs out-of-place, operand
// count, the engine's outcome, and any other tag), grouped by kind.
//
// Contract: one table per property that has counts or promised classes, in a <details> block that is open only
// when a class is missing; a class the property's generator promises (Coverage::required) with zero cases is
// flagged with the word MISSING, in its row and in the block's summary line; all names are escaped.
#pragma once

#include <string>

#include "harness/coverage.h"

namespace bc {

// The kind a coverage class belongs to, e.g. "rank" for "max rank 3", "dtype" for "dtype int64".
std::string coverage_kind(const std::string& cls);

std::string coverage_html(const Coverage& coverage);

}  // namespace bc
