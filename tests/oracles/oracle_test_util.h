// Shared by the oracle tests: build a case from an op and shapes.
#pragma once

#include "harness/case.h"

namespace bc::testing {

inline Case make_case(const std::string& op, std::vector<Shape> shapes) {
  Case c;
  c.op = op;
  c.shapes = std::move(shapes);
  return c;
}

}  // namespace bc::testing
