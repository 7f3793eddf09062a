#include "engine/matmul_shape.h"

#include <gtest/gtest.h>

namespace bc {

// Result shapes follow NumPy's matmul; error texts are those of at::matmul on libtorch-dev 1.13.1, one per path.
TEST(MatmulShape, NumpyResultShapes) {
  EXPECT_EQ(matmul_shape({3}, {3}).value(), Shape{});
  EXPECT_EQ(matmul_shape({2, 3}, {3}).value(), (Shape{2}));
  EXPECT_EQ(matmul_shape({3}, {3, 5}).value(), (Shape{5}));
  EXPECT_EQ(matmul_shape({3, 4}, {2, 5, 4, 6}).value(), (Shape{2, 5, 3, 6}));   // seed 002
  EXPECT_EQ(matmul_shape({4, 3, 5, 3, 8}, {8, 6}).value(), (Shape{4, 3, 5, 3, 6}));  // seed 002
  EXPECT_EQ(matmul_shape({2, 5, 7}, {5, 2, 7, 3}).value(), (Shape{5, 2, 5, 3}));  // seed 003
  EXPECT_EQ(matmul_shape({0, 3, 5}, {1, 5, 6}).value(), (Shape{0, 3, 6}));
  EXPECT_EQ(matmul_shape({5}, {2, 5, 6}).value(), (Shape{2, 6}));
}

TEST(MatmulShape, ErrorTextFollowsLibTorchsPath) {
  EXPECT_EQ(matmul_shape({}, {3}).error().message,
            "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  EXPECT_EQ(matmul_shape({3}, {4}).error().message,
            "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got "
            "3 and 4 elements respectively");
  EXPECT_EQ(matmul_shape({2, 3}, {4}).error().message, "size mismatch, got 2, 2x3,4");
  EXPECT_EQ(matmul_shape({3}, {4, 5}).error().message, "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)");
  EXPECT_EQ(matmul_shape({2, 3}, {4, 5}).error().message, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(matmul_shape({2, 3, 5}, {4, 3}).error().message,
            "mat1 and mat2 shapes cannot be multiplied (6x5 and 4x3)");
  EXPECT_EQ(matmul_shape({2, 3, 5}, {4}).error().message, "size mismatch, got 6, 6x5,4");
  EXPECT_EQ(matmul_shape({2, 3}, {2, 4, 5}).error().message,
            "mat1 and mat2 shapes cannot be multiplied (10x4 and 3x2)");
  EXPECT_EQ(matmul_shape({3}, {2, 4, 5}).error().message, "size mismatch, got 10, 10x4,3");
  EXPECT_EQ(matmul_shape({2, 3, 5}, {2, 4, 6}).error().message,
            "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 4].");
  EXPECT_EQ(matmul_shape({1, 3, 5}, {2, 4, 6}).error().message,
            "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 4].");
}

TEST(MatmulShape, BatchConflictIsABroadcastError) {
  Result<Shape> r = matmul_shape({4, 2, 3, 5}, {3, 2, 5, 6});  // seed 002
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::broadcast);
  EXPECT_EQ(r.error().message,
            "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0");
}

}  // namespace bc
