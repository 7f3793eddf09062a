#include "engine/shape.h"

#include <gtest/gtest.h>

namespace bc {

TEST(Shape, FormatsAsLibTorchPrintsSizes) {
  EXPECT_EQ(format_shape({1, 3, 1}), "[1, 3, 1]");
  EXPECT_EQ(format_shape({}), "[]");
  EXPECT_EQ(format_shape({0}), "[0]");
}

TEST(Shape, NumelOfRankZeroIsOneAndOfSizeZeroIsZero) {
  EXPECT_EQ(numel({}), 1);
  EXPECT_EQ(numel({2, 0, 3}), 0);
  EXPECT_EQ(numel({2, 3, 4}), 24);
}

TEST(Shape, ContiguousStridesSkipSizeZeroAndOne) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}), (Shape{12, 4, 1}));
  EXPECT_EQ(contiguous_strides({2, 0, 4}), (Shape{4, 4, 1}));  // LibTorch: a size-0 dim counts as 1
  EXPECT_EQ(contiguous_strides({}), Shape{});
}

}  // namespace bc
