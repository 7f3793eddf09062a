// Shared by the oracle tests: build a case from an op and shapes.
#pragma once

#include <gtest/gtest.h>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc::testing {

inline Case make_case(const std::string& op, std::vector<Shape> shapes) {
  Case c;
  c.op = op_from_name(op).value();
  c.shapes = std::move(shapes);
  return c;
}

// A small graph worked out by hand: x0 = [2, -1], x1 = [3]; t2 = mul(x0, x1) = [6, -3]; t3 = maximum(t2, x0) =
// [6, -1] (t2 wins element 0, x0 element 1); t4 = mul(t3, t2) = [36, 3], so t2 reaches the result twice. Upstream
// ones: g3 = t2 = [6, -3]; g2 = t3 + [g3[0], 0] = [12, -1]; x0 gets [0, g3[1]] + g2 * x1 = [36, -6]; x1 gets
// sum(g2 * x0) = 24 + 1 = 25.
inline Case graph_example() {
  Case c = make_case("graph", {{2}, {1}});
  c.program = {{Op::mul, {0, 1}}, {Op::maximum, {2, 0}}, {Op::mul, {3, 2}}};
  c.values = ValueSpec{0, false, {Values(std::vector<double>{2, -1}), Values(std::vector<double>{3})}};
  c.requires_grad = {true, true};
  return c;
}
// What every implementation must answer on graph_example(), worked out above.
inline void expect_graph_example(const Outcome& o) {
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, Values(std::vector<double>{36, 3}));
  ASSERT_EQ(o.grads.size(), 2u);
  EXPECT_EQ(o.grads[0], (Grad{{2}, "float32", Values(std::vector<double>{36, -6})}));
  EXPECT_EQ(o.grads[1], (Grad{{1}, "float32", Values(std::vector<double>{25})}));
}

}  // namespace bc::testing
