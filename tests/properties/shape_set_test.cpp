#include "properties/shape_set.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/broadcast.h"

namespace bc {

// Every one-step shrink keeps what the set is, so RapidCheck's and broadcheck's shrinkers never wander from a
// broadcastable set into an unbroadcastable one (or lose a near miss's conflict).
RC_GTEST_PROP(ShapeSetProperty, ShrinksOfABroadcastableSetBroadcast, ()) {
  const ShapeSet s = *gen::shape_set(*rc::gen::inRange(1, 4), 0, 6, false);
  RC_ASSERT(broadcast_shapes(s.shapes()).ok());
  for (const ShapeSet& t : shrink_candidates(s)) RC_ASSERT(broadcast_shapes(t.shapes()).ok());
}

RC_GTEST_PROP(ShapeSetProperty, ShrinksOfANearMissStillFail, ()) {
  const ShapeSet s = *gen::shape_set(*rc::gen::inRange(2, 4), 1, 6, true);
  RC_ASSERT(!broadcast_shapes(s.shapes()).ok());
  for (const ShapeSet& t : shrink_candidates(s)) RC_ASSERT(!broadcast_shapes(t.shapes()).ok());
}

RC_GTEST_PROP(ShapeSetProperty, ShrinksAreSmaller, ()) {
  const ShapeSet s = *gen::shape_set(*rc::gen::inRange(1, 4), 0, 6, false);
  auto weight = [](const ShapeSet& x) {  // total rank, then how far sizes are from the front of the order
    long rank = 0, sizes = 0;
    for (const Shape& shape : x.shapes()) {
      rank += static_cast<long>(shape.size());
      for (int64_t d : shape) sizes += d == 1 ? 0 : d == 0 ? 4 : d;
    }
    return std::make_pair(rank, sizes);
  };
  for (const ShapeSet& t : shrink_candidates(s)) RC_ASSERT(weight(t) <= weight(s));
}

TEST(ShapeSet, DropsAMiddleDimThatExecStyleShrinkingCannot) {
  ShapeSet s;
  s.full = {3, 0, 4};
  s.roles = {{'f', 'f', 'f'}, {'a', 'a', 'a'}};
  bool found = false;
  for (const ShapeSet& t : shrink_candidates(s))
    if (t.shapes()[0] == Shape{3, 4}) found = true;
  EXPECT_TRUE(found);
  EXPECT_EQ(shrink_candidates(s).front().shapes()[0], (Shape{0, 4}));  // the outermost dim goes first
}

TEST(ShapeSet, ConflictSizesStayDifferentAndNeverOne) {
  ShapeSet s;
  s.full = {4};
  s.roles = {{'f'}, {'f'}};
  s.at = 0;
  s.i = 0;
  s.k = 1;
  s.a = 4;
  s.b = 3;
  for (const ShapeSet& t : shrink_candidates(s)) {
    EXPECT_NE(t.a, t.b);
    EXPECT_NE(t.a, 1);
    EXPECT_NE(t.b, 1);
  }
}

}  // namespace bc
