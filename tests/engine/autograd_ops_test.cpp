// Each op's backward formula on small inputs whose gradients are worked out by hand from the calculus (and, for ties
// and rounding modes, from LibTorch 1.13's documented rules).
#include "engine/autograd_ops.h"

#include <cmath>

#include <gtest/gtest.h>

#include "autograd_test_util.h"

namespace bc::ag {

using testing::G;
using testing::grads;
using testing::vec;

TEST(AutogradOps, ArithmeticWithAlpha) {
  Var a = vec({1, 2}), b = vec({3});
  EXPECT_EQ(grads(binary(Op::sub, a, b, Scalar{2, true}), {a, b}), (G{{1, 1}, {-4}}));
  Var c = vec({6}), d = vec({2});
  EXPECT_EQ(grads(binary(Op::div, c, d), {c, d}), (G{{0.5}, {-1.5}}));  // 1/d, -c/d^2
  Var e = vec({1, 2}), f = vec({3});
  EXPECT_EQ(grads(binary(Op::mul, e, f), {e, f}), (G{{3, 3}, {3}}));
}

TEST(AutogradOps, PowAndAtan2) {
  Var x = vec({2}), e = vec({3});
  const G g = grads(binary(Op::pow, x, e), {x, e});
  EXPECT_EQ(g[0][0], 12);                                // e * x^(e-1)
  EXPECT_NEAR(g[1][0], 8 * std::log(2.0), 1e-12);        // x^e * ln x
  Var z = vec({0}), k = vec({2});                        // at x = 0, e >= 0 the exponent's gradient is 0, not NaN
  EXPECT_EQ(grads(binary(Op::pow, z, k), {z, k}), (G{{0}, {0}}));
  // An integer base: log(base) is taken in float32 (found by the finite-difference property: it was truncated).
  Var base = leaf(Tensor::from_values({}, DType::int64, {4})).value(), p = vec({4}, true, DType::float32);
  EXPECT_NEAR(grads(binary(Op::pow, base, p), {p})[0][0], 256 * std::log(4.0), 1e-3);
  Var y = vec({1}), w = vec({1});
  EXPECT_EQ(grads(binary(Op::atan2, y, w), {y, w}), (G{{0.5}, {-0.5}}));
}

TEST(AutogradOps, FmodTruncatesAndRemainderFloors) {
  Var a = vec({5.5}), b = vec({2});
  EXPECT_EQ(grads(binary(Op::fmod, a, b), {a, b}), (G{{1}, {-2}}));     // -trunc(2.75)
  Var c = vec({-5.5}), d = vec({2});
  EXPECT_EQ(grads(binary(Op::remainder, c, d), {c, d}), (G{{1}, {3}}));  // -floor(-2.75)
}

TEST(AutogradOps, MaximumAndMinimumSplitTies) {
  Var a = vec({1, 2, 3}), b = vec({2});
  EXPECT_EQ(grads(binary(Op::maximum, a, b), {a, b}), (G{{0, 0.5, 1}, {1.5}}));
  Var c = vec({1, 2, 3}), d = vec({2});
  EXPECT_EQ(grads(binary(Op::minimum, c, d), {c, d}), (G{{1, 0.5, 0}, {1.5}}));
}

TEST(AutogradOps, LerpAndWhere) {
  Var s = vec({0}), e = vec({10}), w = vec({0.25});
  EXPECT_EQ(grads(lerp(s, e, w), {s, e, w}), (G{{0.75}, {0.25}, {10}}));
  Var cond = leaf(Tensor::from_values({2}, DType::bool_, {1, 0})).value();
  Var a = vec({1, 2}), b = vec({3});
  EXPECT_EQ(grads(where(cond, a, b), {cond, a, b}), (G{{}, {1, 0}, {1}}));
}

TEST(AutogradOps, InPlaceFormulasReadTheOldSelf) {
  // c.mul_(x): x's gradient is the old c, saved before the write.
  Var c = vec({2, 5}, false), x = vec({3});
  ASSERT_TRUE(binary_(Op::mul, c, x).ok());
  EXPECT_EQ(grads(Result<Var>(c), {x}), (G{{7}}));
  Var s = vec({4}, false), e = vec({8}), w = vec({0.5});
  EXPECT_EQ(grads(lerp_(s, e, w), {e, w}), (G{{0.5}, {4}}));  // weight: end - old self
}

TEST(AutogradOps, SumExpandAndViews) {
  Var x = leaf(Tensor::from_values({2, 3}, DType::float64, {1, 2, 3, 4, 5, 6}), true).value();
  Result<Var> s = sum(x, {1});
  EXPECT_EQ(s.value()->data.sizes(), Shape{2});
  const Tensor up = Tensor::from_values({2}, DType::float64, {1, 2});
  ASSERT_TRUE(backward(s.value(), up).ok());
  EXPECT_EQ(x->grad->to_doubles(), (std::vector<double>{1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(sum(x, {-1}, true).value()->data.sizes(), (Shape{2, 1}));
  EXPECT_EQ(sum(x).value()->data.sizes(), Shape{});
  EXPECT_EQ(sum(x, {2}).error().message, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");

  Var col = leaf(Tensor::from_values({3, 1}, DType::float64, {1, 2, 3}), true).value();
  EXPECT_EQ(grads(expand(col, {2, 3, 4}), {col}), (G{{8, 8, 8}}));
  // An overlapping view adds the gradient of every element that shares a location.
  Var base = vec({1, 2, 3});
  Var over = view_of(base, base->data.as_strided({2, 2}, {1, 1}, 0).value(), "AsStridedBackward0").value();
  EXPECT_EQ(grads(Result<Var>(over), {base}), (G{{1, 2, 1}}));
}

}  // namespace bc::ag

namespace bc::ag {

using testing::G;
using testing::grads;
using testing::vec;

TEST(AutogradOps, UnaryFormulasAsDerivativesYamlWritesThem) {
  const auto grad_of = [](Op op, std::vector<double> x) {
    Var v = vec(std::move(x));
    return grads(unary(op, v), {v})[0];
  };
  EXPECT_EQ(grad_of(Op::neg, {2, -3}), (std::vector<double>{-1, -1}));
  EXPECT_EQ(grad_of(Op::abs, {-2, 0, 3}), (std::vector<double>{-1, 0, 1}));  // sgn(self): 0 at 0
  EXPECT_EQ(grad_of(Op::sqrt, {4, 0.25}), (std::vector<double>{0.25, 1}));   // 1 / (2 sqrt(x))
  EXPECT_EQ(grad_of(Op::exp, {0}), (std::vector<double>{1}));
  EXPECT_NEAR(grad_of(Op::exp, {1})[0], std::exp(1.0), 1e-15);
  EXPECT_EQ(grad_of(Op::log, {4, -0.5}), (std::vector<double>{0.25, -2}));  // 1 / x
  EXPECT_EQ(grad_of(Op::sign, {-2, 5}), (std::vector<double>{0, 0}));
  EXPECT_EQ(grad_of(Op::reciprocal, {2, -0.5}), (std::vector<double>{-0.25, -4}));  // -1 / x^2
  // LibTorch 1.13 at -0: sqrt and log give -inf, reciprocal -inf (probe on libtorch-dev).
  for (Op op : {Op::sqrt, Op::log, Op::reciprocal}) EXPECT_EQ(grad_of(op, {-0.0})[0], -INFINITY) << to_string(op);
}

TEST(AutogradOps, UnaryOpsSaveWhatTheirFormulaReads) {
  // exp saves its result: writing the result in place before backward is caught; writing the input is not.
  Var x = vec({1}), y = vec({1});
  Result<Var> e = unary(Op::exp, x);
  Result<Var> mod = binary_(Op::add, e.value(), y);
  ASSERT_TRUE(mod.ok());
  const Tensor& out = e.value()->data;
  EXPECT_FALSE(backward(e.value(), Tensor::from_values(out.sizes(), out.dtype(), {1})).ok());
  Var leaf_in = vec({2}, false), w = vec({3});
  Result<Var> sum = binary(Op::add, leaf_in, w);  // a non-leaf input for log, which saves self
  Result<Var> l = unary(Op::log, sum.value());
  ASSERT_TRUE(binary_(Op::mul, sum.value(), vec({2}, false)).ok());
  EXPECT_FALSE(backward(l.value(), Tensor::from_values({1}, DType::float64, {1})).ok());
  Var z = vec({5});
  Result<Var> n = unary(Op::neg, binary(Op::add, z, vec({1}, false)).value());  // neg saves nothing
  EXPECT_EQ(grads(n, {z}), (G{{-1}}));
}

TEST(AutogradOps, HypotDividesByTheResult) {
  Var a = vec({3, 0}), b = vec({4});
  Result<Var> h = binary(Op::hypot, a, b);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h.value()->data.to_doubles(), (std::vector<double>{5, 4}));
  EXPECT_EQ(grads(binary(Op::hypot, a, b), {a, b}), (G{{0.6, 0}, {1.8}}));  // a / r; b / r summed: 0.8 + 1
  // At the origin the formula is 0 / 0, as LibTorch 1.13's is (it gives nan too).
  Var z = vec({0}), w = vec({0});
  EXPECT_TRUE(std::isnan(grads(binary(Op::hypot, z, w), {z, w})[0][0]));
  // LibTorch has no integer hypot kernel; its message names it.
  Var i = leaf(Tensor::from_values({1}, DType::int64, {3})).value();
  EXPECT_EQ(binary(Op::hypot, i, i).error().message, "\"hypot_cpu\" not implemented for 'Long'");
}

// LibTorch 1.13 records floor_divide (its result requires grad) but has no formula: backward refuses, with its text.
TEST(AutogradOps, FloorDivideRefusesAtBackward) {
  Var a = vec({7, -3}), b = vec({2});
  Result<Var> q = binary(Op::floor_divide, a, b);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q.value()->data.to_doubles(), (std::vector<double>{3, -2}));
  const Result<bool> r = backward(q.value(), Tensor::from_values({2}, DType::float64, {1, 1}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "derivative for aten::floor_divide is not implemented");
}

TEST(AutogradOps, DistIsTheNormOfTheBroadcastDifference) {
  Var a = vec({3, 1}), b = vec({1});  // a - b = [2, 0]: norm 2
  Result<Var> d = dist(a, b);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.value()->data.sizes(), Shape{});
  EXPECT_EQ(d.value()->data.to_doubles(), (std::vector<double>{2}));
  EXPECT_EQ(grads(dist(a, b), {a, b}), (G{{1, 0}, {-1}}));  // (a - b) / norm; b gets minus their sum
  Var z = vec({1, 1}), y = vec({1, 1});  // a zero norm gives zero gradients, not nan
  EXPECT_EQ(grads(dist(z, y), {z, y}), (G{{0, 0}, {0, 0}}));
  // sub's checks come first, then norm's dtype check (LibTorch 1.13's texts).
  Var i = leaf(Tensor::from_values({1}, DType::int64, {3})).value();
  EXPECT_EQ(dist(i, i).error().message, "norm(): input dtype should be either floating point or complex. Got Long instead.");
  Var t = leaf(Tensor::from_values({1}, DType::bool_, {1})).value();
  EXPECT_EQ(dist(t, t).error().kind, ErrorKind::invalid_argument);
  EXPECT_EQ(dist(vec({1, 2, 3}), vec({1, 2})).error().kind, ErrorKind::broadcast);
}

// Probed on libtorch-dev 1.13.1: float16's norm squares and sums in float16, in order; bfloat16's sums in float.
TEST(AutogradOps, DistOfFloat16SumsInFloat16) {
  const auto of = [](DType t, std::vector<double> v) {
    return leaf(Tensor::from_values({static_cast<int64_t>(v.size())}, t, v)).value();
  };
  EXPECT_TRUE(std::isinf(dist(of(DType::float16, {300, 300}), of(DType::float16, {0, 0})).value()->data.to_doubles()[0]));
  const std::vector<double> ones(3000, 1.0), zeros(3000, 0.0);
  EXPECT_EQ(dist(of(DType::float16, ones), of(DType::float16, zeros)).value()->data.to_doubles()[0], 45.25);  // sqrt(2048)
  const std::vector<double> ones300(300, 1.0), zeros300(300, 0.0);
  EXPECT_EQ(dist(of(DType::bfloat16, ones300), of(DType::bfloat16, zeros300)).value()->data.to_doubles()[0], 17.375);
}

// Seen in a run with value classes (LibTorch 1.13.1 CPU): float32's (and bfloat16's) norm squares and sums in
// float, so a difference of 2^64 squares to inf; float64's in double.
TEST(AutogradOps, DistOfFloat32SquaresInFloat) {
  const auto of = [](DType t, std::vector<double> v) {
    return leaf(Tensor::from_values({static_cast<int64_t>(v.size())}, t, v)).value();
  };
  const double big = std::ldexp(1.0, 64);
  EXPECT_TRUE(std::isinf(dist(of(DType::float32, {big}), of(DType::float32, {0})).value()->data.to_doubles()[0]));
  EXPECT_TRUE(std::isinf(dist(of(DType::bfloat16, {big}), of(DType::bfloat16, {0})).value()->data.to_doubles()[0]));
  EXPECT_EQ(dist(of(DType::float64, {big}), of(DType::float64, {0})).value()->data.to_doubles()[0], big);
  EXPECT_EQ(dist(of(DType::float32, {3, 4}), of(DType::float32, {0, 0})).value()->data.to_doubles()[0], 5);
}

TEST(AutogradOps, DistSavesBothInputsWhateverIsNeeded) {
  // self - other is read by both formulas, so LibTorch saves both inputs unguarded: writing either before
  // backward fails, even the one that does not require grad.
  Var a = vec({3, 1}), b = vec({1}, false);
  Result<Var> d = dist(a, b);
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(binary_(Op::add, b, vec({1}, false)).ok());
  const Tensor& out = d.value()->data;
  const Result<bool> r = backward(d.value(), Tensor::from_values(out.sizes(), out.dtype(), {1}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::version_counter);
}

}  // namespace bc::ag

namespace bc::ag {
namespace {

using testing::grads;
using testing::vec;

// logaddexp's gradients, derivatives.yaml's grad / (1 + exp(other - self)) and grad / (1 + exp(self - other)), as
// LibTorch 1.13.1 gave them for (1, 2), (3, 3) and (-inf, 5): 0.2689 / 0.7311, 0.5 / 0.5, 0 / 1.
TEST(AutogradOps, LogaddexpGradients) {
  Var a = vec({1, 3, -INFINITY}), b = vec({2, 3, 5});
  const G g = grads(binary(Op::logaddexp, a, b), {a, b});
  EXPECT_NEAR(g[0][0], 0.2689414213699951, 1e-12);
  EXPECT_NEAR(g[1][0], 0.7310585786300049, 1e-12);
  EXPECT_EQ(g[0][1], 0.5);
  EXPECT_EQ(g[1][1], 0.5);
  EXPECT_EQ(g[0][2], 0);
  EXPECT_EQ(g[1][2], 1);
  EXPECT_EQ(binary(Op::logaddexp, a, b).value()->grad_fn->name, "LogaddexpBackward0");
}

// In place on a leaf that requires grad, LibTorch 1.13.1 refuses bitwise_and_ and the shifts (before their dtype
// check) but runs the logical ops: no leaf check and no node, so self keeps its history.
TEST(AutogradOps, InPlaceBitwiseRefusesALeafAndLogicalDoesNot) {
  Var self = vec({1}, true, DType::float32), other = vec({1}, false, DType::float32);
  const Result<Var> band = binary_(Op::bitwise_and_, self, other);
  ASSERT_FALSE(band.ok());
  EXPECT_EQ(band.error().message, "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_FALSE(binary_(Op::bitwise_left_shift_, self, other).ok());
  const Result<Var> lor = binary_(Op::logical_or_, self, vec({0}, false, DType::int64));
  ASSERT_TRUE(lor.ok()) << lor.error().message;
  EXPECT_EQ(self->data.dtype(), DType::float32);
  EXPECT_EQ(self->grad_fn, nullptr);
  EXPECT_EQ(self->data.to_doubles(), std::vector<double>{1});
}

}  // namespace
}  // namespace bc::ag
