#include "engine/inplace.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/broadcast.h"
#include "properties/shape_gen.h"

namespace bc {

TEST(Inplace, OtherMayBroadcastToSelf) {
  EXPECT_EQ(inplace_shape({5, 3, 4, 1}, {{3, 1, 1}}).value(), (Shape{5, 3, 4, 1}));
}

TEST(Inplace, SelfMayNotGrowAndTheTextIsLibTorch113s) {
  Result<Shape> r = inplace_shape({1, 3, 1}, {{3, 1, 7}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::inplace_shape);
  EXPECT_EQ(r.error().message, "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]");
  EXPECT_EQ(inplace_shape({}, {{3}}).error().message, "output with shape [] doesn't match the broadcast shape [3]");
}

TEST(Inplace, UnbroadcastableOperandsFailAsBroadcastFirst) {
  EXPECT_EQ(inplace_shape({2, 3}, {{4}}).error().kind, ErrorKind::broadcast);
}

RC_GTEST_PROP(InplaceProperty, SucceedsExactlyWhenTheBroadcastIsSelf, ()) {
  const auto shapes = *gen::broadcastable(2);
  Result<Shape> r = inplace_shape(shapes[0], {shapes[1]});
  RC_ASSERT(r.ok() == (broadcast_shapes(shapes).value() == shapes[0]));
}

}  // namespace bc
