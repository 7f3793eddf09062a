#include "engine/expand.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "properties/shape_gen.h"

namespace bc {

Geometry geometry(const Shape& sizes, const Shape& target) {
  Result<Geometry> g = expand_geometry(sizes, contiguous_strides(sizes), target);
  EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
  return g.ok() ? g.value() : Geometry{};
}

// Sizes and strides observed from Tensor::expand on libtorch-dev 1.13.1 (Debian bookworm).
TEST(Expand, StridesMatchLibTorch) {
  EXPECT_EQ(geometry({3}, {2, 1, 3}).strides, (Shape{0, 3, 1}));
  EXPECT_EQ(geometry({3}, {1, 3}).strides, (Shape{3, 1}));  // a new leading dim of size 1 is not stride 0
  EXPECT_EQ(geometry({3}, {1, 1, 3}).strides, (Shape{3, 3, 1}));
  EXPECT_EQ(geometry({}, {2, 1}).strides, (Shape{0, 0}));   // rank 0: every stride 0
  EXPECT_EQ(geometry({2, 1}, {2, 0}).strides, (Shape{1, 0}));
  EXPECT_EQ(geometry({3}, {3, -1}).sizes, (Shape{3, 3}));
  EXPECT_EQ(geometry({3}, {3, -1}).strides, (Shape{0, 1}));
  EXPECT_EQ(geometry({2, 0}, {-1, -1}).sizes, (Shape{2, 0}));
}

TEST(Expand, ErrorsHaveLibTorchText) {
  EXPECT_EQ(expand_shape({3, 1}, {2}).error().message,
            "expand(CPUFloatType{[3, 1]}, size=[2]): the number of sizes provided (1) must be greater or equal to "
            "the number of dimensions in the tensor (2)");
  EXPECT_EQ(expand_shape({2, 3}, {2, 4}).error().message,
            "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  "
            "Target sizes: [2, 4].  Tensor sizes: [2, 3]");
  EXPECT_EQ(expand_shape({3}, {-1, 3}).error().message,
            "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
  EXPECT_EQ(expand_shape({0}, {1}).error().kind, ErrorKind::expand);  // 0 never stretches
  EXPECT_EQ(expand_shape({1}, {-3}).error().message, "numel: integer multiplication overflow");
  EXPECT_EQ(expand_shape({}, {-1}).error().kind, ErrorKind::invalid_argument);  // rank 0 skips the -1 check
}

TEST(Expand, IsExpandableTo) {
  EXPECT_TRUE(is_expandable_to({}, {2, 3}));
  EXPECT_TRUE(is_expandable_to({1, 3}, {2, 3}));
  EXPECT_TRUE(is_expandable_to({1}, {0}));
  EXPECT_FALSE(is_expandable_to({2, 3}, {3}));
  EXPECT_FALSE(is_expandable_to({0}, {1}));
}

RC_GTEST_PROP(ExpandProperty, StretchedAndNewDimsHaveStrideZero, ()) {
  const Shape full = *gen::shape();
  const Shape source = *gen::operand_of(full);
  Result<Geometry> g = expand_geometry(source, contiguous_strides(source), full);
  RC_ASSERT(g.ok());
  RC_ASSERT(g.value().sizes == full);
  const size_t pad = full.size() - source.size();
  for (size_t i = 0; i < full.size(); ++i) {
    const bool stretched = i < pad ? full[i] != 1 : source[i - pad] != full[i];
    if (stretched) RC_ASSERT(g.value().strides[i] == 0);
    else if (i >= pad) RC_ASSERT(g.value().strides[i] == contiguous_strides(source)[i - pad]);
  }
}

}  // namespace bc
