// Element counts of shapes for the resource caps, multiplied with overflow checks: a count past INT64_MAX stays
// "more than 9223372036854775807" instead of wrapping to a negative number.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/shape.h"

namespace bc {

struct ElementCount {
  int64_t value = 1;      // exact unless `overflow`
  bool overflow = false;  // the true count is above INT64_MAX
};

// a * size (a negative size, expand's -1, counts as 1); a + b. Both saturate at INT64_MAX with `overflow` set.
ElementCount times(ElementCount a, int64_t size);
ElementCount plus(ElementCount a, ElementCount b);

// The elements of a tensor of this shape.
ElementCount count_elements(const Shape& shape);
// An upper bound on the broadcast of `shapes`: the widest size at each position from the right (0 where any is 0).
ElementCount broadcast_count(const std::vector<Shape>& shapes);

bool exceeds(ElementCount n, int64_t cap);
// "1048576", or "more than 9223372036854775807".
std::string to_string(ElementCount n);

}  // namespace bc
