#include "oracles/xtensor_grads.h"

#include <cmath>

#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/xtensor_oracle.h"

namespace bc {
namespace {

using testing::make_case;
using V = std::vector<double>;

// A gradient case with the operands' values given outright and a ones upstream gradient (no grad_seed), so that
// every expected gradient below can be worked out by hand.
Case grad_case(const std::string& op, std::vector<Shape> shapes, std::vector<Values> data, std::vector<bool> rg,
               std::vector<DType> dtypes = {}) {
  Case c = make_case(op, std::move(shapes));
  c.values = ValueSpec{0, false, std::move(data)};
  c.requires_grad = std::move(rg);
  c.dtypes = std::move(dtypes);
  return c;
}

class XtensorGradsTest : public ::testing::Test {
 protected:
  std::unique_ptr<Oracle> xt = make_xtensor_oracle();
  // The gradient of operand k, which must be there, with its input's shape and dtype.
  Grad grad(const Outcome& o, size_t k) {
    EXPECT_EQ(o.status, Status::ok) << o.detail;
    EXPECT_GT(o.grads.size(), k);
    if (o.grads.size() <= k || !o.grads[k]) {
      ADD_FAILURE() << "no gradient for operand " << k;
      return {};
    }
    return *o.grads[k];
  }
};

TEST_F(XtensorGradsTest, AddReducesTheBroadcastAxis) {
  const Outcome o = xt->run(grad_case("add", {{3}, {1}}, {{1, 2, 3}, {5}}, {true, true}));
  EXPECT_EQ(o.shape, (Shape{3}));
  EXPECT_EQ(o.dtype, "float32");
  EXPECT_EQ(o.values, (V{6, 7, 8}));
  EXPECT_EQ(grad(o, 0), (Grad{{3}, "float32", {1, 1, 1}}));
  EXPECT_EQ(grad(o, 1), (Grad{{1}, "float32", {3}}));
}

// float32 operands are computed in float, as xt::xarray<float> is: in addcdiv's tensor2 gradient
// -g * value * tensor1 / (tensor2 * tensor2), 1e20f * 1e20f overflows to inf and the gradient is -0 (in double it
// would be -1e-20). A float64 case keeps the double value.
TEST_F(XtensorGradsTest, Float32OperandsAreComputedInFloat) {
  const Outcome f = xt->run(grad_case("addcdiv", {{1}, {1}, {1}}, {V{0}, V{1e20}, V{1e20}}, {false, false, true}));
  ASSERT_EQ(grad(f, 2).values.size(), 1u);
  const double g = grad(f, 2).values.as_double(0);
  EXPECT_EQ(g, 0.0);
  EXPECT_TRUE(std::signbit(g));
  const Outcome d = xt->run(grad_case("addcdiv", {{1}, {1}, {1}}, {V{0}, V{1e20}, V{1e20}}, {false, false, true},
                                      {DType::float64, DType::float64, DType::float64}));
  EXPECT_EQ(grad(d, 2).values, (Values(V{-1e-20})));
}

TEST_F(XtensorGradsTest, MulGivesTheColumnSums) {
  // b's gradient is sum over rows of a * g: [1+4, 2+5, 3+6].
  const Outcome o = xt->run(grad_case("mul", {{2, 3}, {3}}, {{1, 2, 3, 4, 5, 6}, {10, 20, 30}}, {true, true}));
  EXPECT_EQ(grad(o, 0), (Grad{{2, 3}, "float32", {10, 20, 30, 10, 20, 30}}));
  EXPECT_EQ(grad(o, 1), (Grad{{3}, "float32", {5, 7, 9}}));
}

TEST_F(XtensorGradsTest, ReducesALeadingAxisAndAnInnerSizeOneAxisAtOnce) {
  // a[i][j][k] = 12i + 4j + k; b's gradient [3, 1] sums a over i and k: 60 + 32j.
  V a;
  for (int v = 0; v < 24; ++v) a.push_back(v);
  const Outcome o = xt->run(grad_case("mul", {{2, 3, 4}, {3, 1}}, {a, {1, 1, 1}}, {false, true}));
  EXPECT_EQ(o.shape, (Shape{2, 3, 4}));
  EXPECT_FALSE(o.grads.at(0));
  EXPECT_EQ(grad(o, 1), (Grad{{3, 1}, "float32", {60, 92, 124}}));
}

TEST_F(XtensorGradsTest, OnlyOperandsThatRequireGradGetOne) {
  const Outcome o = xt->run(grad_case("sub", {{2}, {2, 2}}, {{1, 2}, {1, 2, 3, 4}}, {false, true}));
  ASSERT_EQ(o.grads.size(), 2u);
  EXPECT_FALSE(o.grads[0]);
  EXPECT_EQ(grad(o, 1), (Grad{{2, 2}, "float32", {-1, -1, -1, -1}}));
}

TEST_F(XtensorGradsTest, AlphaScalesOthersGradient) {
  Case c = grad_case("sub", {{2}, {2, 2}}, {{1, 2}, {1, 2, 3, 4}}, {true, true});
  c.scalars["alpha"] = Scalar{2, true};
  const Outcome o = xt->run(c);
  EXPECT_EQ(o.values, (V{-1, -2, -5, -6}));
  EXPECT_EQ(grad(o, 0), (Grad{{2}, "float32", {2, 2}}));
  EXPECT_EQ(grad(o, 1), (Grad{{2, 2}, "float32", {-2, -2, -2, -2}}));
}

TEST_F(XtensorGradsTest, MaximumAndMinimumSplitTies) {
  const std::vector<Values> data = {{1, 5, 3}, {1, 2, 4}};
  const Outcome hi = xt->run(grad_case("maximum", {{3}, {3}}, data, {true, true}));
  EXPECT_EQ(grad(hi, 0).values, (V{0.5, 1, 0}));
  EXPECT_EQ(grad(hi, 1).values, (V{0.5, 0, 1}));
  const Outcome lo = xt->run(grad_case("minimum", {{3}, {3}}, data, {true, true}));
  EXPECT_EQ(grad(lo, 0).values, (V{0.5, 0, 1}));
  EXPECT_EQ(grad(lo, 1).values, (V{0.5, 1, 0}));
}

TEST_F(XtensorGradsTest, WhereRoutesTheGradientAndTheConditionGetsNone) {
  const Outcome o = xt->run(grad_case("where", {{3}, {3}, {1}}, {{1, 0, 1}, {7, 8, 9}, {-1}}, {false, true, true},
                                      {DType::bool_, DType::float32, DType::float32}));
  EXPECT_EQ(o.values, (V{7, -1, 9}));
  EXPECT_FALSE(o.grads.at(0));
  EXPECT_EQ(grad(o, 1), (Grad{{3}, "float32", {1, 0, 1}}));
  EXPECT_EQ(grad(o, 2), (Grad{{1}, "float32", {1}}));
}

TEST_F(XtensorGradsTest, LerpWithATensorWeight) {
  // start [0, 1], end [4, 3], weight 0.25: start gets 1 - w, end w, weight sum(end - start) = 4 + 2.
  const Outcome o = xt->run(grad_case("lerp", {{2}, {2}, {}}, {{0, 1}, {4, 3}, {0.25}}, {true, true, true},
                                      {DType::float64, DType::float64, DType::float64}));
  EXPECT_EQ(o.dtype, "float64");
  EXPECT_EQ(o.values, (V{1, 1.5}));
  EXPECT_EQ(grad(o, 0), (Grad{{2}, "float64", {0.75, 0.75}}));
  EXPECT_EQ(grad(o, 1), (Grad{{2}, "float64", {0.25, 0.25}}));
  EXPECT_EQ(grad(o, 2), (Grad{{}, "float64", {6}}));
}

TEST_F(XtensorGradsTest, DiamondSumsBothPaths) {
  // (a + b) * a: a gets (a + b) + a, b gets a (summed over a's axis).
  const Outcome o = xt->run(grad_case("diamond", {{2}, {}}, {{1, 2}, {3}}, {true, true}));
  EXPECT_EQ(o.values, (V{4, 10}));
  EXPECT_EQ(grad(o, 0), (Grad{{2}, "float32", {5, 7}}));
  EXPECT_EQ(grad(o, 1), (Grad{{}, "float32", {3}}));
}

TEST_F(XtensorGradsTest, DivPowAtan2) {
  const Outcome d = xt->run(grad_case("div", {{1}, {1}}, {{6}, {2}}, {true, true}));
  EXPECT_EQ(grad(d, 0).values, (V{0.5}));
  EXPECT_EQ(grad(d, 1).values, (V{-1.5}));  // -a / b^2
  const Outcome third = xt->run(grad_case("div", {{1}, {1}}, {{1}, {3}}, {true, false}));
  EXPECT_EQ(grad(third, 0).values, (V{static_cast<float>(1.0 / 3)}));  // rounded to the input's float32
  // pow: x [2, 0, 0], e [3, 0, 2]: self e * x^(e-1) except where e == 0; exponent r * log(x) except x == 0, e >= 0.
  const Outcome p = xt->run(grad_case("pow", {{3}, {3}}, {{2, 0, 0}, {3, 0, 2}}, {true, true},
                                      {DType::float64, DType::float64}));
  EXPECT_EQ(p.values, (V{8, 1, 0}));
  EXPECT_EQ(grad(p, 0).values, (V{12, 0, 0}));
  EXPECT_EQ(grad(p, 1).values, (V{8 * std::log(2.0), 0, 0}));
  const Outcome a = xt->run(grad_case("atan2", {{}, {}}, {{1}, {1}}, {true, true}));
  EXPECT_EQ(grad(a, 0).values, (V{0.5}));   // x / (x^2 + y^2)
  EXPECT_EQ(grad(a, 1).values, (V{-0.5}));  // -y / (x^2 + y^2)
}

TEST_F(XtensorGradsTest, FmodTruncatesAndRemainderFloors) {
  const std::vector<Values> data = {{5, -5}, {3, 3}};
  const Outcome f = xt->run(grad_case("fmod", {{2}, {2}}, data, {true, true}));
  EXPECT_EQ(f.values, (V{2, -2}));
  EXPECT_EQ(grad(f, 0).values, (V{1, 1}));
  EXPECT_EQ(grad(f, 1).values, (V{-1, 1}));  // -trunc(a / b)
  const Outcome r = xt->run(grad_case("remainder", {{2}, {2}}, data, {true, true}));
  EXPECT_EQ(r.values, (V{2, 1}));
  EXPECT_EQ(grad(r, 1).values, (V{-1, 2}));  // -floor(a / b)
  // LibTorch's floor division at the edges, as Python's //: -2 // inf is -1 (so b's gradient is 1), inf // 2 is nan.
  const Outcome edge = xt->run(grad_case("remainder", {{2}, {2}}, {{-2, INFINITY}, {INFINITY, 2}}, {false, true}));
  EXPECT_TRUE(Outcome::same_values(edge.values, V{INFINITY, NAN}));  // -2 moved to the sign of inf; fmod(inf, 2)
  EXPECT_TRUE(Outcome::same_values(grad(edge, 1).values, V{1, NAN}));
}

TEST_F(XtensorGradsTest, RankZeroAndSizeZero) {
  const Outcome empty = xt->run(grad_case("add", {{0}, {1}}, {{}, {2}}, {true, true}));
  EXPECT_EQ(empty.shape, (Shape{0}));
  EXPECT_EQ(grad(empty, 0), (Grad{{0}, "float32", {}}));
  EXPECT_EQ(grad(empty, 1), (Grad{{1}, "float32", {0}}));
  const Outcome scalar = xt->run(grad_case("mul", {{}, {2, 2}}, {{3}, {1, 2, 3, 4}}, {true, false}));
  EXPECT_EQ(grad(scalar, 0), (Grad{{}, "float32", {10}}));
}

TEST_F(XtensorGradsTest, InPlaceOnlyWhenSelfNeedsNoGradient) {
  // self * other in place; other's gradient is self's old values summed over rows.
  const Outcome o = xt->run(grad_case("mul_", {{2, 3}, {3}}, {{1, 2, 3, 4, 5, 6}, {2, 2, 2}}, {false, true}));
  EXPECT_EQ(o.shape, (Shape{2, 3}));
  EXPECT_EQ(o.values, (V{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(grad(o, 1), (Grad{{3}, "float32", {5, 7, 9}}));
  EXPECT_EQ(xt->run(grad_case("add_", {{3}, {3}}, {{1, 2, 3}, {1, 2, 3}}, {true, false})).status, Status::unsupported);
  // A result that does not fit self (LibTorch refuses; xtensor would resize) is not judged either.
  EXPECT_EQ(xt->run(grad_case("add_", {{1}, {3}}, {{1}, {1, 2, 3}}, {false, true})).status, Status::unsupported);
}

TEST_F(XtensorGradsTest, WhatIsAnAutogradRuleIsUnsupported) {
  Case modified = grad_case("mul", {{2}, {2}}, {{1, 2}, {3, 4}}, {true, true});
  modified.modify = 1;
  EXPECT_EQ(xt->run(modified).status, Status::unsupported);
  EXPECT_EQ(xt->run(grad_case("mul", {{2}, {2}}, {{1, 2}, {3, 4}}, {false, true}, {DType::float32, DType::int64}))
                .status,
            Status::unsupported);
  EXPECT_EQ(xt->run(grad_case("eq", {{2}, {2}}, {{1, 2}, {3, 4}}, {true, true})).status, Status::unsupported);
  Case overlapping = grad_case("add", {{4}, {2}}, {{1, 2, 3, 4}, {1, 2}}, {true, true});
  overlapping.layouts = {Layout::contiguous, Layout::overlapping};
  EXPECT_EQ(xt->run(overlapping).status, Status::unsupported);
}

TEST_F(XtensorGradsTest, IntegerOperandsThatNeedNoGradientAreOrdinary) {
  const Outcome o = xt->run(grad_case("mul", {{2}, {2}}, {{1, 2}, {3, 4}}, {true, false}, {DType::float32, DType::int64}));
  EXPECT_EQ(o.dtype, "float32");  // float * int64 is float in C++ as in PyTorch
  EXPECT_EQ(grad(o, 0), (Grad{{2}, "float32", {3, 4}}));
  // std::pow(float, int64) is double: xtensor's type, not PyTorch's float32 (declared as xtensor-cpp-conversions).
  const Outcome p = xt->run(grad_case("pow", {{2}, {2}}, {{1, 2}, {3, 4}}, {true, false}, {DType::float32, DType::int64}));
  EXPECT_EQ(p.dtype, "float64");
  EXPECT_EQ(grad(p, 0), (Grad{{2}, "float32", {3, 32}}));
}

TEST_F(XtensorGradsTest, ShapesThatDoNotBroadcastFail) {
  const Outcome o = xt->run(grad_case("add", {{2}, {3}}, {{1, 2}, {1, 2, 3}}, {true, true}));
  ASSERT_EQ(o.status, Status::error);
  EXPECT_EQ(o.error->kind, ErrorKind::broadcast);
}

TEST(SumToAxes, LeadingAndSizeOneAxes) {
  EXPECT_EQ(sum_to_axes({2, 3, 4}, {3, 1}), (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(sum_to_axes({2, 3}, {}), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(sum_to_axes({1, 3}, {1, 3}), (std::vector<std::size_t>{}));
  EXPECT_EQ(sum_to_axes({0, 3}, {1, 3}), (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace bc

namespace bc {

TEST(XtensorGraph, ComposesTheFormulasInReverseOrder) {
  testing::expect_graph_example(make_xtensor_oracle()->run(testing::graph_example()));
}

TEST(XtensorGraph, LeavesBackwardFromAResultThatNeedsNoGradToAutograd) {
  Case c = testing::graph_example();
  c.program = {{Op::gt, {0, 1}}};
  EXPECT_EQ(make_xtensor_oracle()->run(c).status, Status::unsupported);
  c.requires_grad.clear();  // forward only: a bool result
  const Outcome o = make_xtensor_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.dtype, "bool");
  EXPECT_EQ(o.values, Values(std::vector<int64_t>{0, 0}));
}

TEST(XtensorGraph, AFloat32NodeComputesInFloat) {
  // fmod(x, 1 / x) at x = 3: r = 1 / 3 rounds to 0.33333334f, and 3 / r = 8.99999982 rounds to 9 in float32,
  // so fmod's gradient for its divisor, -trunc(x / r), is -9 (as in LibTorch's float32 formula), not the -8 of
  // exact arithmetic. x's gradient: 1 from fmod's dividend, plus 9 * r * r = 1.0000001f through the reciprocal;
  // 1 + 1.0000001f is a tie in float32 that rounds to 2 (with -8 it would be 1.8888888).
  Case c = make_case("graph", {{}});
  c.program = {{Op::reciprocal, {0}}, {Op::fmod, {0, 1}}};
  c.values = ValueSpec{0, false, {Values(std::vector<double>{3})}};
  c.requires_grad = {true};
  const Outcome o = make_xtensor_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, Values(std::vector<double>{static_cast<double>(3.0f - 8.0f * (1.0f / 3.0f))}));
  ASSERT_EQ(o.grads.size(), 1u);
  ASSERT_TRUE(o.grads[0].has_value());
  EXPECT_EQ(o.grads[0]->values, Values(std::vector<double>{2}));
}

TEST(XtensorGraph, ConvertsAFloat64ArgumentToTheNodesFloat32First) {
  // A 0-d float64 x0 = 1 + 2^-24 with a float32 [1] x1 = 1: the node is float32, and LibTorch converts x0 to
  // float32 (a tie, to even: 1) before it subtracts, so the result is 0, not the 2^-24 of subtracting in double.
  Case c = make_case("graph", {{}, {1}});
  c.dtypes = {DType::float64, DType::float32};
  c.program = {{Op::sub, {0, 1}}, {Op::neg, {2}}};
  c.values = ValueSpec{0, false, {Values(std::vector<double>{1 + std::ldexp(1.0, -24)}), Values(std::vector<double>{1})}};
  const Outcome o = make_xtensor_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.dtype, "float32");
  EXPECT_EQ(o.values, Values(std::vector<double>{-0.0}));
}

TEST(XtensorGraph, RefusesANodeItHasNoFormulaFor) {
  // floor_divide may stand in a program (a pointwise binary op), but the xtensor graph oracle has no formula for it:
  // it says so rather than computing another op's formula (it once ran diamond's (a + b) * a: 30 and 4.5 here).
  Case c = make_case("graph", {{2}, {2}});
  c.program = {{Op::floor_divide, {0, 1}}};
  c.values = ValueSpec{0, false, {Values(std::vector<double>{5, 1.5}), Values(std::vector<double>{1, 1.5})}};
  const Outcome o = make_xtensor_oracle()->run(c);
  EXPECT_EQ(o.status, Status::unsupported) << describe(c) << ": " << o.values;
  EXPECT_NE(o.detail.find("floor_divide"), std::string::npos) << o.detail;
}

}  // namespace bc
