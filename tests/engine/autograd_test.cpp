// The graph, backward's order and accumulation, and the two in-place autograd errors. Expected gradients are worked
// out by hand from the calculus; messages are LibTorch 1.13's, observed with libtorch-dev 1.13.1 on the same programs.
#include "engine/autograd.h"

#include <gtest/gtest.h>

#include "engine/autograd_ops.h"

namespace bc::ag {
namespace {

Var var(const Shape& s, std::vector<double> v, bool rg, DType t = DType::float32) {
  return leaf(Tensor::from_values(s, t, v), rg).value();
}
Tensor ones(const Shape& s, DType t = DType::float32) {
  return Tensor::from_values(s, t, std::vector<double>(static_cast<size_t>(numel(s)), 1.0));
}
std::vector<double> grad_of(const Var& v) { return v->grad ? v->grad->to_doubles() : std::vector<double>{}; }
std::string error_of(const Result<bool>& r) { return r.ok() ? "(ok)" : r.error().message; }

const char* kHint =
    " Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True).";

}  // namespace

TEST(Autograd, SeedExampleBroadcastInputGetsTheSummedGradient) {
  // Seed 000: A = [3], B = [1]; (A + B) backward with ones gives B.grad = [3].
  Var a = var({3}, {1, 2, 3}, true), b = var({1}, {5}, true);
  Var y = binary(Op::add, a, b).value();
  ASSERT_TRUE(backward(y, ones({3})).ok());
  EXPECT_EQ(grad_of(b), std::vector<double>{3});
  EXPECT_EQ(grad_of(a), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(b->grad->sizes(), Shape{1});
}

TEST(Autograd, DiamondVisitsEachNodeOnceAndAddsBothPaths) {
  // y = x * x + x: dy/dx = 2x + 1.
  Var x = var({2}, {1, 2}, true);
  Var sq = binary(Op::mul, x, x).value();
  Var y = binary(Op::add, sq, x).value();
  ASSERT_TRUE(backward(y, ones({2})).ok());
  EXPECT_EQ(grad_of(x), (std::vector<double>{3, 5}));
  // A second backward through a fresh graph accumulates into .grad.
  Var y2 = binary(Op::mul, x, x).value();
  ASSERT_TRUE(backward(y2, ones({2})).ok());
  EXPECT_EQ(grad_of(x), (std::vector<double>{5, 9}));
}

TEST(Autograd, GradientsTakeTheInputsDtype) {
  Var a = var({2}, {1, 2}, true, DType::float32), b = var({2}, {3, 4}, true, DType::float64);
  Var y = binary(Op::mul, a, b).value();
  EXPECT_EQ(y->data.dtype(), DType::float64);
  ASSERT_TRUE(backward(y, ones({2}, DType::float64)).ok());
  EXPECT_EQ(a->grad->dtype(), DType::float32);
  EXPECT_EQ(b->grad->dtype(), DType::float64);
  EXPECT_EQ(grad_of(a), (std::vector<double>{3, 4}));
}

TEST(Autograd, RefusesWhatLibTorchRefuses) {
  Result<Var> r = leaf(ones({2}, DType::int64), true);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Only Tensors of floating point and complex dtype can require gradients");
  Var a = var({2}, {1, 2}, false);
  EXPECT_EQ(error_of(backward(a, ones({2}))), "element 0 of tensors does not require grad and does not have a grad_fn");
  Var c = binary(Op::lt, var({2}, {1, 2}, true), a).value();  // comparisons are not differentiable
  EXPECT_FALSE(c->requires_grad);
}

TEST(Autograd, InPlaceOnALeafOrAViewOfOneIsRefused) {
  Var a = var({3}, {1, 2, 3}, true);
  Result<Var> r = binary_(Op::add, a, var({3}, {1, 1, 1}, false));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::leaf_inplace);
  EXPECT_EQ(r.error().message, "a leaf Variable that requires grad is being used in an in-place operation.");
  // The check comes before the shape check: a bad shape still gets the leaf error.
  EXPECT_EQ(binary_(Op::add, a, var({4}, {1, 1, 1, 1}, false)).error().kind, ErrorKind::leaf_inplace);

  Var base = var({2, 3}, {1, 2, 3, 4, 5, 6}, true);
  Var t = view_of(base, base->data.transpose(0, 1).value(), "TransposeBackward0").value();
  Result<Var> rv = binary_(Op::add, t, var({3, 2}, std::vector<double>(6, 1.0), false));
  ASSERT_FALSE(rv.ok());
  EXPECT_EQ(rv.error().message, "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  // A leaf that does not require grad may be written, even with an input that does: it joins the graph.
  Var c = var({2, 3}, std::vector<double>(6, 0.0), false), x = var({3}, {1, 2, 3}, true);
  ASSERT_TRUE(binary_(Op::add, c, x, Scalar{3, true}).ok());
  EXPECT_TRUE(c->requires_grad);
  ASSERT_TRUE(backward(c, ones({2, 3})).ok());
  EXPECT_EQ(grad_of(x), (std::vector<double>{6, 6, 6}));
}

TEST(Autograd, ModifyingASavedTensorBreaksBackwardWithLibTorchsText) {
  Var a = var({3}, {1, 2, 3}, true), c = var({3}, {4, 5, 6}, false);
  Var y = binary(Op::mul, a, c).value();  // saves c, which a's gradient reads
  ASSERT_TRUE(binary_(Op::add, c, var({}, {1}, false)).ok());
  Result<bool> r = backward(y, ones({3}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::version_counter);
  EXPECT_EQ(r.error().message, std::string("one of the variables needed for gradient computation has been modified by "
                                           "an inplace operation: [CPUFloatType [3]] is at version 1; expected "
                                           "version 0 instead.") + kHint);

  // add saves nothing, so modifying its input is harmless.
  Var c2 = var({3}, {4, 5, 6}, false);
  Var y2 = binary(Op::add, a, c2).value();
  ASSERT_TRUE(binary_(Op::add, c2, var({}, {1}, false)).ok());
  EXPECT_TRUE(backward(y2, ones({3})).ok());

  // pow saves its result for the exponent's gradient; the message names the node that produced it.
  Var base = var({3}, {1, 1, 1}, false), e = var({3}, {1, 1, 1}, true);
  Var p = binary(Op::pow, base, e).value();
  ASSERT_TRUE(binary_(Op::add, p, var({}, {1}, false)).ok());
  EXPECT_EQ(error_of(backward(p, ones({3}))),
            std::string("one of the variables needed for gradient computation has been modified by an inplace "
                        "operation: [CPUFloatType [3]], which is output 0 of PowBackward1, is at version 1; expected "
                        "version 0 instead.") + kHint);
}

TEST(Autograd, RetainedGradOfAViewAndTheBasesGradient) {
  // v = base^T; (v * v) backward with ones: v.grad = 2v, base.grad = 2 base.
  Var base = var({2, 3}, {0, 1, 2, 3, 4, 5}, true);
  Var v = view_of(base, base->data.transpose(0, 1).value(), "TransposeBackward0").value();
  retain_grad(v);
  Var y = binary(Op::mul, v, v).value();
  ASSERT_TRUE(backward(y, ones({3, 2})).ok());
  EXPECT_EQ(grad_of(v), (std::vector<double>{0, 6, 2, 8, 4, 10}));
  EXPECT_EQ(grad_of(base), (std::vector<double>{0, 2, 4, 6, 8, 10}));
}

}  // namespace bc::ag
