#include "engine/broadcast.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/expand.h"
#include "properties/shape_gen.h"

namespace bc {

TEST(Broadcast, RightAlignsAndStretchesOnes) {
  EXPECT_EQ(broadcast_shapes({5, 1, 4, 1}, {3, 1, 1}).value(), (Shape{5, 3, 4, 1}));
  EXPECT_EQ(broadcast_shapes({1}, {3, 1, 7}).value(), (Shape{3, 1, 7}));
  EXPECT_EQ(broadcast_shapes({6, 1, 5}, {3, 5}).value(), (Shape{6, 3, 5}));
}

TEST(Broadcast, RankZeroAndSizeZeroAreOrdinary) {
  EXPECT_EQ(broadcast_shapes({}, {2, 2}).value(), (Shape{2, 2}));
  EXPECT_EQ(broadcast_shapes({1}, {0}).value(), (Shape{0}));
  EXPECT_EQ(broadcast_shapes({2, 1}, {0}).value(), (Shape{2, 0}));
  EXPECT_FALSE(broadcast_shapes({0}, {2, 2}).ok());
}

TEST(Broadcast, FailureHasLibTorchText) {
  // LibTorch 1.13 for (5,2,4,1) + (3,1,1), as quoted in seeds 001 and 003 and observed on libtorch-dev 1.13.1.
  Result<Shape> r = broadcast_shapes({5, 2, 4, 1}, {3, 1, 1});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::broadcast);
  EXPECT_EQ(r.error().message,
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1");
}

TEST(Broadcast, WithSeveralConflictsTheInnermostIsNamed) {
  // Observed on libtorch-dev 1.13.1 (broadcheck replay of add([2, 3], [3, 2])): infer_size checks from the right.
  EXPECT_EQ(broadcast_shapes({2, 3}, {3, 2}).error().message,
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1");
  EXPECT_EQ(broadcast_shapes({4, 2, 5}, {3, 1, 2}).error().message,
            "The size of tensor a (5) must match the size of tensor b (2) at non-singleton dimension 2");
}

TEST(Broadcast, NaryFoldsLeftAndNamesTheAccumulatedShapeAsA) {
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{2, 1}, {3}, {4, 1, 1}}).value(), (Shape{4, 2, 3}));
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{}).value(), Shape{});
  // LibTorch's broadcast_tensors on [2,1], [3], [4,1,5]: a is the running result [2, 3].
  EXPECT_EQ(broadcast_shapes(std::vector<Shape>{{2, 1}, {3}, {4, 1, 5}}).error().message,
            "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 2");
}

RC_GTEST_PROP(BroadcastProperty, EveryOperandExpandsToTheResult, ()) {
  const auto shapes = *gen::broadcastable(*rc::gen::inRange(1, 4));
  Result<Shape> r = broadcast_shapes(shapes);
  RC_ASSERT(r.ok());
  for (const Shape& s : shapes) RC_ASSERT(is_expandable_to(s, r.value()));
  // and the result is the smallest such shape: each dim is the size of some operand (or 1)
  for (size_t back = 1; back <= r.value().size(); ++back) {
    bool witnessed = r.value()[r.value().size() - back] == 1;
    for (const Shape& s : shapes)
      if (s.size() >= back && s[s.size() - back] == r.value()[r.value().size() - back]) witnessed = true;
    RC_ASSERT(witnessed);
  }
}

RC_GTEST_PROP(BroadcastProperty, NearMissesAlwaysFail, ()) {
  const auto shapes = *gen::near_miss(*rc::gen::inRange(2, 4));
  Result<Shape> r = broadcast_shapes(shapes);
  RC_ASSERT(!r.ok());
  RC_ASSERT(r.error().kind == ErrorKind::broadcast);
}

TEST(BroadcastSizes, NegativeSizesAreRefusedInOrderBeforeBroadcasting) {
  // LibTorch makes a tensor of each shape first: the first negative size is refused even where a 1 would stretch.
  const Result<Shape> r = broadcast_sizes({{2, 3}, {2, -1}, {4}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::invalid_argument);
  EXPECT_EQ(r.error().message, "Trying to create tensor with negative dimension -1: [2, -1]");
  EXPECT_EQ(broadcast_sizes({{-3}}).error().message, "Trying to create tensor with negative dimension -3: [-3]");
  EXPECT_EQ(broadcast_sizes({}).value(), Shape{});
  EXPECT_EQ(broadcast_sizes({{2, 1}, {3}}).value(), (Shape{2, 3}));
}

}  // namespace bc
