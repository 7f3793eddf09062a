#include "engine/sum_to.h"

#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/expand.h"
#include "properties/shape_gen.h"

namespace bc {

TEST(SumTo, SeedZeroGradientExample) {
  // A=[3], B=[1], C = A + B: B's gradient [3] is summed over axis 0 back to [1] (seed 000).
  SumToPlan plan = plan_sum_to({3}, {1}).value();
  EXPECT_EQ(plan.axes, (std::vector<int64_t>{0}));
  EXPECT_EQ(plan.leading, 0);
  EXPECT_EQ(apply_plan_shape(plan), (Shape{1}));
  EXPECT_TRUE(plan_sum_to({3}, {3}).value().axes.empty());
}

TEST(SumTo, SeedFourAxisLabels) {
  // Seed 004: x [2,2,1,2,2] and y [1,1,2,2,1] broadcast to [2,2,2,2,2]; x reduces axis 2, y axes 0, 1 and 4.
  EXPECT_EQ(plan_sum_to({2, 2, 2, 2, 2}, {2, 2, 1, 2, 2}).value().axes, (std::vector<int64_t>{2}));
  EXPECT_EQ(plan_sum_to({2, 2, 2, 2, 2}, {1, 1, 2, 2, 1}).value().axes, (std::vector<int64_t>{0, 1, 4}));
}

TEST(SumTo, LeadingAxesAreDroppedAndRankZeroSumsEverything) {
  SumToPlan plan = plan_sum_to({4, 2, 3}, {1, 3}).value();
  EXPECT_EQ(plan.axes, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(plan.leading, 1);
  EXPECT_EQ(apply_plan_shape(plan), (Shape{1, 3}));
  EXPECT_EQ(plan_sum_to({2, 3}, {}).value().axes, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(apply_plan_shape(plan_sum_to({2, 0}, {1}).value()), (Shape{1}));  // a size-0 axis sums to 1
}

TEST(SumTo, PreconditionIsChecked) {
  // at::sum_to would return [2, 3] unchanged here (observed on LibTorch 1.13); the engine refuses.
  Result<SumToPlan> r = plan_sum_to({2, 3}, {4, 3});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::sum_to);
  EXPECT_FALSE(plan_sum_to({2, 3}, {1, 2, 3}).ok());  // more dims than the gradient
}

RC_GTEST_PROP(SumToProperty, PlanRestoresTheInputShapeAndSumsOnlyStretchedAxes, ()) {
  const Shape from = *gen::shape();
  const Shape to = *gen::operand_of(from);
  Result<SumToPlan> plan = plan_sum_to(from, to);
  RC_ASSERT(plan.ok());
  RC_ASSERT(apply_plan_shape(plan.value()) == to);
  // An axis is summed exactly when expand would give it stride 0 (stretched, or a new leading axis of size != 1),
  // or when it is a leading axis of size 1 (dropped).
  const Geometry g = expand_geometry(to, contiguous_strides(to), from).value();
  const size_t pad = from.size() - to.size();
  for (size_t i = 0; i < from.size(); ++i) {
    const bool summed = std::find(plan.value().axes.begin(), plan.value().axes.end(), int64_t(i)) != plan.value().axes.end();
    RC_ASSERT(summed == (i < pad || (g.strides[i] == 0 && from[i] != 1)));
  }
}

}  // namespace bc
