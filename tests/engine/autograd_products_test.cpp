// Gradients of the products, fused products and matmul's composite, worked out by hand (d(a @ b) gives
// grad @ b^T and a^T @ grad; a broadcast batch dim sums), and matmul's dispatch against LibTorch 1.13's messages.
#include "engine/autograd_products.h"

#include <gtest/gtest.h>

#include "autograd_test_util.h"

namespace bc::ag {

using testing::G;
using testing::grads;
using testing::var;

namespace {

std::vector<double> iota(int64_t n) {
  std::vector<double> v;
  for (int64_t k = 1; k <= n; ++k) v.push_back(static_cast<double>(k));
  return v;
}

}  // namespace

TEST(AutogradProducts, MmAndMv) {
  Var a = var({2, 2}, {1, 2, 3, 4}), b = var({2, 2}, {5, 6, 7, 8});
  EXPECT_EQ(grads(product(ProductOp::mm, a, b), {a, b}), (G{{11, 15, 11, 15}, {4, 4, 6, 6}}));
  Var m = var({2, 2}, {1, 2, 3, 4}), v = var({2}, {5, 6});
  EXPECT_EQ(grads(product(ProductOp::mv, m, v), {m, v}), (G{{5, 6, 5, 6}, {4, 6}}));
  Var x = var({3}, {1, 2, 3}), y = var({3}, {4, 5, 6});
  EXPECT_EQ(grads(product(ProductOp::dot, x, y), {x, y}), (G{{4, 5, 6}, {1, 2, 3}}));
}

TEST(AutogradProducts, MatmulReducesBroadcastBatchDims) {
  // [2, 1, 1, 2] @ [3, 2, 1] -> [2, 3, 1, 1] (batch [2, 1] with [3]): each a[i] meets all three b[j], each b[j]
  // both a[i].
  Var a = var({2, 1, 1, 2}, {1, 2, 3, 4}), b = var({3, 2, 1}, iota(6));
  const Result<Var> y = product(ProductOp::matmul, a, b);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y.value()->data.sizes(), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(grads(y, {a, b}), (G{{9, 12, 9, 12}, {4, 6, 4, 6, 4, 6}}));
}

TEST(AutogradProducts, MatmulOneDimensionalOperands) {
  // [2] @ [3, 2, 2] -> [3, 2] (the vector promoted to a row, then the added dim removed).
  Var a = var({2}, {1, 2}), b = var({3, 2, 2}, iota(12));
  const Result<Var> y = product(ProductOp::matmul, a, b);
  EXPECT_EQ(y.value()->data.sizes(), (Shape{3, 2}));
  EXPECT_EQ(y.value()->data.to_doubles(), (std::vector<double>{7, 10, 19, 22, 31, 34}));
  // a's gradient: for each k, the sum of b's row k over batches and columns.
  EXPECT_EQ(grads(y, {a, b}), (G{{1 + 2 + 5 + 6 + 9 + 10, 3 + 4 + 7 + 8 + 11 + 12}, {1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2}}));
}

TEST(AutogradProducts, MatmulDispatchFollowsShouldFold) {
  // Observed on LibTorch 1.13: a contiguous [2, 3, 5] is folded into one mm; the same shape as a transpose of a
  // [2, 5, 3] tensor goes through bmm, which words the same mistake differently.
  Var contiguous = var({2, 3, 5}, std::vector<double>(30, 1), false), matrix = var({4, 3}, std::vector<double>(12, 1), false);
  EXPECT_EQ(product(ProductOp::matmul, contiguous, matrix).error().message,
            "mat1 and mat2 shapes cannot be multiplied (6x5 and 4x3)");
  Var base = var({2, 5, 3}, std::vector<double>(30, 1), false);
  Var transposed = leaf(base->data.transpose(1, 2).value()).value();
  EXPECT_EQ(product(ProductOp::matmul, transposed, matrix).error().message,
            "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 4].");
  Var batched = var({2, 4, 5}, std::vector<double>(40, 1), false), left = var({2, 3}, std::vector<double>(6, 1), false);
  EXPECT_EQ(product(ProductOp::matmul, left, batched).error().message,
            "mat1 and mat2 shapes cannot be multiplied (10x4 and 3x2)");
  Var x = var({4, 2, 3, 5}, std::vector<double>(120, 1), false), z = var({3, 2, 5, 6}, std::vector<double>(180, 1), false);
  EXPECT_EQ(product(ProductOp::matmul, x, z).error().kind, ErrorKind::broadcast);
  EXPECT_EQ(product(ProductOp::matmul, var(Shape{}, {1}, false), var({2}, {1, 1}, false)).error().message,
            "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
}

TEST(AutogradProducts, FusedGradientsCarryBetaAndAlpha) {
  // addmm(c, a, b, beta=2, alpha=3) with c [2] broadcast over 2 rows: c gets 2 per row, summed: 4.
  Var c = var({2}, {0, 0}), a = var({2, 2}, {1, 2, 3, 4}), b = var({2, 2}, {5, 6, 7, 8});
  EXPECT_EQ(grads(fused(ProductOp::addmm, c, a, b, {2, true}, {3, true}), {c, a, b}),
            (G{{4, 4}, {33, 45, 33, 45}, {12, 12, 18, 18}}));
  // beta 0: c still gets a gradient, of zeros (LibTorch's maybe_multiply).
  Var c0 = var({2, 2}, {0, 0, 0, 0}), a0 = var({2, 2}, {1, 2, 3, 4}), b0 = var({2, 2}, {5, 6, 7, 8});
  EXPECT_EQ(grads(fused(ProductOp::addmm, c0, a0, b0, {0, true}), {c0})[0], (std::vector<double>{0, 0, 0, 0}));
  // addbmm: the summed product's gradient reaches every batch entry.
  Var cc = var(Shape{}, {0}), b1 = var({2, 1, 2}, {1, 2, 3, 4}), b2 = var({2, 2, 1}, {5, 6, 7, 8});
  EXPECT_EQ(grads(fused(ProductOp::addbmm, cc, b1, b2), {cc, b1, b2}), (G{{1}, {5, 6, 7, 8}, {1, 2, 3, 4}}));
  // addr: vec1 gets grad @ vec2, vec2 gets grad^T @ vec1.
  Var cr = var({2, 3}, std::vector<double>(6, 0)), v1 = var({2}, {1, 2}), v2 = var({3}, {1, 2, 3});
  EXPECT_EQ(grads(fused(ProductOp::addr, cr, v1, v2, {1, true}, {2, true}), {v1, v2}), (G{{12, 12}, {6, 6, 6}}));
}

TEST(AutogradProducts, InPlaceFusedRefusesALeafThatRequiresGrad) {
  Var c = var({2, 2}, {0, 0, 0, 0}), a = var({2, 2}, {1, 2, 3, 4}, false), b = var({2, 2}, {1, 0, 0, 1}, false);
  EXPECT_EQ(fused_(ProductOp::addmm, c, a, b).error().kind, ErrorKind::leaf_inplace);
  Var d = var({2, 2}, {0, 0, 0, 0}, false), e = var({2, 2}, {1, 2, 3, 4});
  const Result<Var> y = fused_(ProductOp::addmm, d, e, b);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(y.value()->requires_grad);
  EXPECT_EQ(grads(y, {e})[0], (std::vector<double>{1, 1, 1, 1}));
}

TEST(AutogradProducts, AnIntegerResultRecordsNoGradient) {
  // baddbmm takes batch2's dtype: a float c that requires grad with int64 batches gives an int64 result.
  Var c = var(Shape{}, {1}), b1 = var({1, 1, 1}, {2}, false, DType::int64), b2 = var({1, 1, 1}, {3}, false, DType::int64);
  const Result<Var> y = fused(ProductOp::baddbmm, c, b1, b2);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y.value()->data.dtype(), DType::int64);
  EXPECT_FALSE(y.value()->requires_grad);
}

}  // namespace bc::ag
