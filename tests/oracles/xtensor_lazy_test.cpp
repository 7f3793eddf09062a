// The unevaluated expression: its dimension() never fails, its size() is where operands that do not broadcast are
// found (and end the process), and its elements read through its own iterators are the engine's.
#include <chrono>

#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"
#include "oracles/isolated_oracle.h"
#include "oracles/xtensor_variants.h"

namespace bc {

using testing::make_case;

TEST(XtensorLazy, ReadsTheEnginesValuesThroughTheExpression) {
  for (const std::string op : {"add", "sub", "mul", "div"}) {
    Case c = make_case(op, {{3, 1, 2}, {4, 1}});
    c.layouts = {Layout::expanded, Layout::contiguous};
    c.values = ValueSpec{6, true, {}};
    const Outcome want = make_engine_oracle()->run(c);
    const Outcome got = make_xtensor_lazy_oracle()->run(c);
    ASSERT_EQ(got.status, Status::ok) << op << " " << got.detail;
    EXPECT_EQ(got.shape, (Shape{3, 4, 2}));
    EXPECT_EQ(got.values, want.values) << op;
  }
}

// size() is noexcept (xaccessible.hpp) and computes the broadcast shape, whose broadcast_error cannot leave it:
// std::terminate, a SIGABRT that the isolated worker records as the case's outcome.
TEST(XtensorLazy, ShapesThatDoNotBroadcastAbortWhenTheSizeIsAsked) {
  Case c = make_case("add", {{3}, {2}});
  c.values = ValueSpec{1, false, {}};
  auto isolated = make_isolated_oracle(make_xtensor_lazy_oracle, std::chrono::milliseconds(10000));
  const Outcome o = isolated->run(c);
  ASSERT_EQ(o.status, Status::crash);
  EXPECT_EQ(o.detail, "SIGABRT");
}

TEST(XtensorLazy, InPlaceIsAnAssignmentAndNotThisPath) {
  Case c = make_case("add_", {{3}, {3}});
  c.values = ValueSpec{1, false, {}};
  EXPECT_EQ(make_xtensor_lazy_oracle()->run(c).status, Status::unsupported);
}

TEST(XtensorLazy, WheresConditionIsTestedForTruth) {
  Case c = make_case("where", {{4}, {4}, {4}});
  c.dtypes = {DType::float32, DType::float32, DType::float32};
  c.values = ValueSpec{0, false, {{0, -0.0, 2, NAN}, {1, 2, 3, 4}, {5, 6, 7, 8}}};
  const Outcome o = make_xtensor_lazy_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{5, 6, 3, 4}));
}

}  // namespace bc
