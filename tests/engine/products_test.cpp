// The products and fused products on tensors: values worked out by hand, and the outcomes, dtypes and texts
// LibTorch 1.13 gives for the same inputs (probed on libtorch-dev 1.13.1), checks in LibTorch's order.
#include "engine/products.h"

#include <cmath>

#include <gtest/gtest.h>

namespace bc {
namespace {

Tensor t(const Shape& shape, std::vector<double> v, DType d = DType::float32) { return Tensor::from_values(shape, d, v); }
Tensor ones(const Shape& shape, DType d = DType::float32) {
  return Tensor::from_values(shape, d, std::vector<double>(static_cast<size_t>(numel(shape)), 1.0));
}
std::string error_of(const Result<Tensor>& r) { return r.ok() ? "(ok)" : r.error().message; }
ErrorKind kind_of(const Result<Tensor>& r) { return r.ok() ? ErrorKind::other : r.error().kind; }

}  // namespace

TEST(Products, StrictProductValues) {
  const Tensor a = t({2, 3}, {1, 2, 3, 4, 5, 6}), b = t({3, 2}, {1, 0, 0, 1, 1, 1});
  EXPECT_EQ(product(ProductOp::mm, a, b).value().to_doubles(), (std::vector<double>{4, 5, 10, 11}));
  EXPECT_EQ(product(ProductOp::mv, a, t({3}, {1, 1, 1})).value().to_doubles(), (std::vector<double>{6, 15}));
  const Result<Tensor> d = product(ProductOp::dot, t({3}, {1, 2, 3}), t({3}, {4, 5, 6}));
  EXPECT_EQ(d.value().sizes(), Shape{});
  EXPECT_EQ(d.value().to_doubles(), (std::vector<double>{32}));
  // bmm: two batches, each its own product.
  const Result<Tensor> m = product(ProductOp::bmm, t({2, 1, 2}, {1, 2, 3, 4}), t({2, 2, 1}, {1, 1, 2, 0}));
  EXPECT_EQ(m.value().sizes(), (Shape{2, 1, 1}));
  EXPECT_EQ(m.value().to_doubles(), (std::vector<double>{3, 6}));
  // outer promotes like mul.
  const Result<Tensor> o = product(ProductOp::outer, t({2}, {1, 2}, DType::int64), t({3}, {1, 0.5, 2}, DType::float64));
  EXPECT_EQ(o.value().dtype(), DType::float64);
  EXPECT_EQ(o.value().to_doubles(), (std::vector<double>{1, 0.5, 2, 2, 1, 4}));
}

TEST(Products, StridedOperandsAreReadThroughTheirStrides) {
  const Tensor base = t({3, 2}, {1, 2, 3, 4, 5, 6});
  const Tensor at = base.transpose(0, 1).value();  // [[1, 3, 5], [2, 4, 6]]
  EXPECT_EQ(product(ProductOp::mv, at, t({3}, {1, 0, 0})).value().to_doubles(), (std::vector<double>{1, 2}));
}

TEST(Products, ShapeErrorsHaveLibTorchsText) {
  EXPECT_EQ(error_of(product(ProductOp::mm, ones({2, 3, 4}), ones({4, 2}))), "self must be a matrix");
  EXPECT_EQ(error_of(product(ProductOp::mm, ones({2, 3}), ones({3}))), "mat2 must be a matrix");
  EXPECT_EQ(error_of(product(ProductOp::mm, ones({2, 3}), ones({4, 2}))),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)");
  EXPECT_EQ(error_of(product(ProductOp::bmm, ones({2, 3}), ones({2, 3, 4}))), "batch1 must be a 3D tensor");
  // bmm does not broadcast its batch: a batch of 1 against 2 is an error.
  EXPECT_EQ(error_of(product(ProductOp::bmm, ones({2, 2, 3}), ones({1, 3, 4}))),
            "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [1, 3].");
  EXPECT_EQ(error_of(product(ProductOp::mv, ones({2, 3}), ones({3, 1}))), "vector + matrix @ vector expected, got 1, 2, 2");
  EXPECT_EQ(error_of(product(ProductOp::mv, ones({2, 3}), ones({4}))), "size mismatch, got 2, 2x3,4");
  EXPECT_EQ(error_of(product(ProductOp::mv, ones({}), ones({3}))), "Dimension specified as 0 but tensor has no dimensions");
  EXPECT_EQ(error_of(product(ProductOp::dot, ones({3, 1}), ones({3}))), "1D tensors expected, but got 2D and 1D tensors");
  EXPECT_EQ(error_of(product(ProductOp::dot, ones({3}), ones({4}))),
            "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 "
            "and 4 elements respectively");
  EXPECT_EQ(error_of(product(ProductOp::outer, ones({3}), ones({}))), "outer: Expected 1-D argument vec2, but got 0-D");
  EXPECT_EQ(kind_of(product(ProductOp::mm, ones({2, 3}), ones({4, 2}))), ErrorKind::matmul_shape);
}

TEST(Products, DtypeRulesComeAfterShapes) {
  const Tensor f = ones({2, 3}), d = ones({3, 2}, DType::float64);
  EXPECT_EQ(error_of(product(ProductOp::mm, f, d)), "expected scalar type Float but found Double");
  EXPECT_EQ(kind_of(product(ProductOp::mm, f, d)), ErrorKind::dtype_mismatch);
  EXPECT_EQ(error_of(product(ProductOp::mm, f, ones({4, 4}, DType::float64))),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x4)");
  EXPECT_EQ(error_of(product(ProductOp::mm, ones({2, 3}, DType::bool_), ones({3, 2}, DType::bool_))),
            "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  EXPECT_EQ(error_of(product(ProductOp::dot, ones({3}), ones({4}, DType::float64))),
            "dot : expected both vectors to have same dtype, but found Float and Double");  // dot: dtype first
  EXPECT_EQ(product(ProductOp::mm, ones({2, 3}, DType::int64), ones({3, 2}, DType::int64)).value().dtype(),
            DType::int64);
}

TEST(Fused, OnlyCBroadcasts) {
  // addmm: c [3] broadcasts to the [2, 3] product; 2 * 1 + 1 * (row sums of a 2x4 of ones times 4x3 of twos) = 10.
  const Result<Tensor> r = fused(ProductOp::addmm, t({3}, {1, 1, 1}), ones({2, 4}), t({4, 3}, std::vector<double>(12, 2)),
                                 {2, true}, {1, true});
  EXPECT_EQ(r.value().sizes(), (Shape{2, 3}));
  EXPECT_EQ(r.value().to_doubles(), std::vector<double>(6, 10));
  EXPECT_EQ(error_of(fused(ProductOp::addmm, ones({4}), ones({2, 4}), ones({4, 3}))),
            "The expanded size of the tensor (3) must match the existing size (4) at non-singleton dimension 1.  "
            "Target sizes: [2, 3].  Tensor sizes: [4]");
  // addbmm sums the batch: c + sum_b a_b @ b_b.
  const Result<Tensor> s = fused(ProductOp::addbmm, t({}, {1}), ones({3, 1, 2}), ones({3, 2, 1}));
  EXPECT_EQ(s.value().to_doubles(), (std::vector<double>{7}));  // 1 + 3 * 2
  // addr: the outer product.
  EXPECT_EQ(fused(ProductOp::addr, t({}, {0}), t({2}, {1, 2}), t({2}, {3, 4})).value().to_doubles(),
            (std::vector<double>{3, 4, 6, 8}));
}

TEST(Fused, BetaZeroIgnoresC) {
  const Tensor nan_c = t({2}, {NAN, INFINITY});
  for (ProductOp op : {ProductOp::addmv}) {
    const Result<Tensor> r = fused(op, nan_c, ones({2, 3}), ones({3}), {0, true});
    EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{3, 3}));
  }
  EXPECT_EQ(fused(ProductOp::addmm, t({1}, {NAN}), ones({1, 1}), ones({1, 1}), {0, false}).value().to_doubles(),
            (std::vector<double>{1}));
  // With beta 1 the NaN propagates.
  EXPECT_TRUE(std::isnan(fused(ProductOp::addmm, t({1}, {NAN}), ones({1, 1}), ones({1, 1})).value().to_doubles()[0]));
}

TEST(Fused, IntegerComputationTruncatesScalarsExceptAddrRefusesThem) {
  const Tensor c = t({2, 2}, {3, 3, 3, 3}, DType::int64), a = t({2, 1}, {3, 3}, DType::int64),
               b = t({1, 2}, {3, 3}, DType::int64);
  EXPECT_EQ(fused(ProductOp::addmm, c, a, b, {0.5, false}, {3, true}).value().to_doubles(), std::vector<double>(4, 27));
  EXPECT_EQ(fused(ProductOp::addmm, c, a, b, {2, true}, {1.5, false}).value().to_doubles(), std::vector<double>(4, 15));
  EXPECT_EQ(error_of(fused(ProductOp::addr, c, t({2}, {1, 1}, DType::int64), t({2}, {1, 1}, DType::int64), {0.5, false})),
            "For integral input tensors, argument beta must not be a floating point number.");
}

TEST(Fused, DtypeRulesPerOp) {
  const Tensor f22 = ones({2, 2}), d22 = ones({2, 2}, DType::float64);
  EXPECT_EQ(error_of(fused(ProductOp::addmm, d22, f22, f22)), "self and mat2 must have the same dtype");
  EXPECT_EQ(error_of(fused(ProductOp::addmm, f22, ones({2, 2}, DType::int64), f22)), "mat1 and mat2 must have the same dtype");
  // addmm checks dtypes before ranks.
  EXPECT_EQ(error_of(fused(ProductOp::addmm, d22, ones({4}), ones({4, 2}))), "self and mat2 must have the same dtype");
  // addmv and baddbmm take the result dtype from vec / batch2 and convert c to it.
  EXPECT_EQ(fused(ProductOp::addmv, ones({2}, DType::float64), ones({2, 3}), ones({3})).value().dtype(), DType::float32);
  EXPECT_EQ(error_of(fused(ProductOp::addmv, ones({2}), ones({2, 3}, DType::int64), ones({3}))),
            "expected scalar type Long but found Float");
  EXPECT_EQ(error_of(fused(ProductOp::baddbmm, ones({1, 2, 2}), ones({1, 2, 1}, DType::bool_), ones({1, 1, 2}, DType::int64))),
            "\"baddbmm\" not implemented for 'Bool'");
  // addr promotes all three, bool included.
  EXPECT_EQ(fused(ProductOp::addr, ones({2, 2}, DType::bool_), ones({2}, DType::int64), ones({2})).value().dtype(),
            DType::float32);
  EXPECT_EQ(fused(ProductOp::addr, ones({2, 2}, DType::bool_), ones({2}, DType::bool_), t({2}, {0, 0}, DType::bool_),
                  {0, true}, {2, true})
                .value()
                .to_doubles(),
            std::vector<double>(4, 0));
}

TEST(Fused, BatchedOpsStretchCBeforeCheckingTheBatch) {
  // baddbmm reads the result's sizes from the batches and expands c before the batch checks.
  EXPECT_EQ(kind_of(fused(ProductOp::baddbmm, ones({5, 1, 1}), ones({2, 3, 3}), ones({1, 3, 4}))), ErrorKind::expand);
  EXPECT_EQ(error_of(fused(ProductOp::baddbmm, ones({2, 3, 4}), ones({2, 3, 3}), ones({3, 4}))),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EQ(error_of(fused(ProductOp::addbmm, ones({3}), ones({2, 2, 4}), ones({3, 4, 3}))),
            "batch1 and batch2 must have same number of batches, got 2 and 3");
  EXPECT_EQ(error_of(fused(ProductOp::addbmm, ones({3}), ones({2, 2, 4}), ones({2, 5, 3}))),
            "Incompatible matrix sizes for bmm (2x4 and 5x3)");
}

TEST(Fused, InPlaceKeepsCsShape) {
  Tensor narrow = ones({3});
  EXPECT_EQ(error_of(fused_(ProductOp::addmm, narrow, ones({2, 4}), ones({4, 3}))),
            "Bad in-place call: input tensor size [3] and output tensor size [2, 3] should match");
  EXPECT_EQ(kind_of(fused_(ProductOp::addbmm, narrow, ones({2, 2, 4}), ones({2, 4, 3}))), ErrorKind::inplace_shape);
  EXPECT_EQ(error_of(fused_(ProductOp::addr, narrow, ones({2}), ones({3}))), "2D tensor expected, got 1D tensor for input");
  Tensor row = ones({1, 3});
  EXPECT_EQ(error_of(fused_(ProductOp::addr, row, ones({2}), ones({3}))), "size mismatch, input: [1, 3], v1: [2], v2: [3]");
  Tensor d = ones({2}, DType::float64);
  EXPECT_EQ(error_of(fused_(ProductOp::addmv, d, ones({2, 3}), ones({3}))),
            "Bad in-place call: input tensor dtype double and output tensor dtype float should match");
  Tensor expanded = ones({1, 3}).expand({2, 3}).value();
  EXPECT_EQ(kind_of(fused_(ProductOp::addmm, expanded, ones({2, 2}), ones({2, 3}))), ErrorKind::internal_overlap);
  Tensor self = ones({2, 2});
  const Tensor before = self;
  ASSERT_TRUE(fused_(ProductOp::addmm, self, ones({2, 1}), t({1, 2}, {2, 3}), {1, true}, {2, true}).ok());
  EXPECT_EQ(self.to_doubles(), (std::vector<double>{5, 7, 5, 7}));
  EXPECT_TRUE(self.shares_storage_with(before));
}

// float16 is refused where bool is (LibTorch 1.13's CPU kernels have neither); bfloat16 computes, in float.
TEST(Products, Float16RefusedWhereBoolIs) {
  const DType h = DType::float16;
  EXPECT_EQ(error_of(product(ProductOp::mm, ones({2, 2}, h), ones({2, 2}, h))), "\"addmm_impl_cpu_\" not implemented for 'Half'");
  EXPECT_EQ(error_of(product(ProductOp::bmm, ones({1, 2, 2}, h), ones({1, 2, 2}, h))), "\"bmm\" not implemented for 'Half'");
  EXPECT_EQ(error_of(product(ProductOp::mv, ones({2, 2}, h), ones({2}, h))), "\"addmv_impl_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(product(ProductOp::dot, ones({2}, h), ones({2}, h))), "\"dot\" not implemented for 'Half'");
  EXPECT_EQ(error_of(fused(ProductOp::baddbmm, ones({1, 2, 2}, h), ones({1, 2, 2}, h), ones({1, 2, 2}, h))),
            "\"baddbmm\" not implemented for 'Half'");
  EXPECT_TRUE(product(ProductOp::outer, ones({2}, h), ones({2}, h)).ok());
  const Result<Tensor> bf = product(ProductOp::mm, t({1, 2}, {1, 2}, DType::bfloat16), t({2, 1}, {256, 1}, DType::bfloat16));
  EXPECT_EQ(bf.value().dtype(), DType::bfloat16);
  EXPECT_EQ(bf.value().to_doubles(), (std::vector<double>{258}));  // 258 is a bfloat16 value (2^8 + 2)
  // Seed-2 default run against LibTorch 1.13: beta is range-checked; addmm_ names the Half kernel before overlap.
  const Tensor u = ones({1, 1}, DType::uint8);
  EXPECT_EQ(error_of(fused(ProductOp::addmm, u, u, u, {-1, false})), "value cannot be converted to type uint8_t without overflow");
  EXPECT_TRUE(fused(ProductOp::addmm, u, u, u, {-1, true}).ok());  // an integral -1 wraps
  Tensor expanded = ones({1, 1}, h).expand({1, 2}).value();
  EXPECT_EQ(error_of(fused_(ProductOp::addmm, expanded, ones({1, 1}, h), ones({1, 2}, h))),
            "\"addmm_impl_cpu_\" not implemented for 'Half'");
  const Result<Tensor> i8 = product(ProductOp::dot, t({2}, {100, 100}, DType::int8), t({2}, {2, 1}, DType::int8));
  EXPECT_EQ(i8.value().to_doubles(), (std::vector<double>{44}));  // 300 wraps to 44 in int8
}

TEST(Fused, AddrRoundsEveryStepInItsDtype) {
  // LibTorch 1.13's addr kernel computes alpha * v1 * v2 (and beta * self + ...) in the result dtype, left to right
  // (probed): in float16, 2 * 40000 is already inf, though 2 * (40000 * 0.5) would fit.
  const Scalar two{2, true}, zero{0, true}, one{1, true};
  const Tensor big = t({1}, {40000}, DType::float16), half = t({1}, {0.5}, DType::float16);
  EXPECT_TRUE(std::isinf(fused(ProductOp::addr, ones({1, 1}, DType::float16), big, half, zero, two).value().to_doubles()[0]));
  EXPECT_TRUE(std::isinf(fused(ProductOp::addr, ones({1, 1}, DType::float16), big, half, one, two).value().to_doubles()[0]));
  // bfloat16 too: 3 * 1.0078125 rounds to 3.03125 before the second factor, giving 3.0625 (once: 3.046875).
  const Tensor x = t({1}, {1.0078125}, DType::bfloat16);
  EXPECT_EQ(fused(ProductOp::addr, ones({1, 1}, DType::bfloat16), x, x, zero, {3, true}).value().to_doubles(),
            (std::vector<double>{3.0625}));
  // float32 keeps the same order: 2 * 3e38 overflows before the 0.5.
  const Tensor f = t({1}, {3e38}), g = t({1}, {0.5});
  EXPECT_TRUE(std::isinf(fused(ProductOp::addr, ones({1, 1}), f, g, zero, two).value().to_doubles()[0]));
}

TEST(Fused, AddmmInPlaceConvertsItsScalarsBeforeTheOverlapCheck) {
  // LibTorch 1.13 (seed-3 run): addmm_ on an expanded uint8 self with alpha=-1.0 names the scalar, not the overlap.
  Tensor self = t({1, 3}, {1, 2, 3}, DType::uint8).expand({5, 3}).value();
  const Tensor a = ones({5, 1}, DType::uint8), b = ones({1, 3}, DType::uint8);
  EXPECT_EQ(error_of(fused_(ProductOp::addmm, self, a, b, {}, {-1.0, false})),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(kind_of(fused_(ProductOp::addmm, self, a, b)), ErrorKind::internal_overlap);
}

// So do addbmm_ (LibTorch 1.13, corpus finding-addbmm-inplace-scalar-before-overlap), addmv_ and baddbmm_.
TEST(Fused, EveryInPlaceProductConvertsItsScalarsBeforeTheOverlapCheck) {
  const std::string overflow = "value cannot be converted to type uint8_t without overflow";
  const Tensor row = t({1, 3}, {1, 2, 3}, DType::uint8);
  const Tensor batch_a = ones({2, 5, 1}, DType::uint8), batch_b = ones({2, 1, 3}, DType::uint8);
  struct Form {
    ProductOp op;
    Tensor self, a, b;
  };
  const std::vector<Form> forms = {
      {ProductOp::addbmm, row.expand({5, 3}).value(), batch_a, batch_b},
      {ProductOp::baddbmm, row.expand({2, 5, 3}).value(), batch_a, batch_b},
      {ProductOp::addmv, t({1}, {1}, DType::uint8).expand({5}).value(), ones({5, 3}, DType::uint8),
       ones({3}, DType::uint8)}};
  for (Form f : forms) {
    EXPECT_EQ(error_of(fused_(f.op, f.self, f.a, f.b, {}, {-1.0, false})), overflow) << to_string(f.op);
    EXPECT_EQ(kind_of(fused_(f.op, f.self, f.a, f.b)), ErrorKind::internal_overlap) << to_string(f.op);
  }
}

}  // namespace bc
