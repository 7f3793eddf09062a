#include "engine/sum_to.h"

#include <algorithm>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/expand.h"
#include "properties/shape_gen.h"

namespace bc {

TEST(SumTo, SeedZeroGradientExample) {
  // A=[3], B=[1], C = A + B: B's gradient [3] is summed over axis 0 back to [1] (seed 000).
  SumToPlan plan = plan_sum_to({3}, {1}).value();
  EXPECT_EQ(plan.axes, (std::vector<int64_t>{0}));
  EXPECT_EQ(plan.leading, 0);
  EXPECT_EQ(apply_plan_shape(plan), (Shape{1}));
  EXPECT_TRUE(plan_sum_to({3}, {3}).value().axes.empty());
}

TEST(SumTo, SeedFourAxisLabels) {
  // Seed 004: x [2,2,1,2,2] and y [1,1,2,2,1] broadcast to [2,2,2,2,2]; x reduces axis 2, y axes 0, 1 and 4.
  EXPECT_EQ(plan_sum_to({2, 2, 2, 2, 2}, {2, 2, 1, 2, 2}).value().axes, (std::vector<int64_t>{2}));
  EXPECT_EQ(plan_sum_to({2, 2, 2, 2, 2}, {1, 1, 2, 2, 1}).value().axes, (std::vector<int64_t>{0, 1, 4}));
}

TEST(SumTo, LeadingAxesAreDroppedAndRankZeroSumsEverything) {
  SumToPlan plan = plan_sum_to({4, 2, 3}, {1, 3}).value();
  EXPECT_EQ(plan.axes, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(plan.leading, 1);
  EXPECT_EQ(apply_plan_shape(plan), (Shape{1, 3}));
  EXPECT_EQ(plan_sum_to({2, 3}, {}).value().axes, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(apply_plan_shape(plan_sum_to({2, 0}, {1}).value()), (Shape{1}));  // a size-0 axis sums to 1
}

TEST(SumTo, PreconditionIsChecked) {
  // at::sum_to would return [2, 3] unchanged here (observed on LibTorch 1.13); the engine refuses.
  Result<SumToPlan> r = plan_sum_to({2, 3}, {4, 3});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::sum_to);
  EXPECT_FALSE(plan_sum_to({2, 3}, {1, 2, 3}).ok());  // more dims than the gradient
}

RC_GTEST_PROP(SumToProperty, PlanRestoresTheInputShapeAndSumsOnlyStretchedAxes, ()) {
  const Shape from = *gen::shape();
  const Shape to = *gen::operand_of(from);
  Result<SumToPlan> plan = plan_sum_to(from, to);
  RC_ASSERT(plan.ok());
  RC_ASSERT(apply_plan_shape(plan.value()) == to);
  // An axis is summed exactly when expand would give it stride 0 (stretched, or a new leading axis of size != 1),
  // or when it is a leading axis of size 1 (dropped).
  const Geometry g = expand_geometry(to, contiguous_strides(to), from).value();
  const size_t pad = from.size() - to.size();
  for (size_t i = 0; i < from.size(); ++i) {
    const bool summed = std::find(plan.value().axes.begin(), plan.value().axes.end(), int64_t(i)) != plan.value().axes.end();
    RC_ASSERT(summed == (i < pad || (g.strides[i] == 0 && from[i] != 1)));
  }
}

TEST(SumToTensor, SumsInDoubleAndRoundsOnceToTheGradsDtype) {
  const Tensor grad = Tensor::from_values({3}, DType::float32, {0.1, 0.2, 0.3});
  const Tensor r = sum_to(grad, {1}).value();
  EXPECT_EQ(r.dtype(), DType::float32);
  EXPECT_EQ(r.sizes(), (Shape{1}));
  const double exact = double(0.1f) + double(0.2f) + double(0.3f);
  EXPECT_EQ(r.to_doubles(), (std::vector<double>{static_cast<float>(exact)}));
  const Tensor d = sum_to(Tensor::from_values({3}, DType::float64, {0.1, 0.2, 0.3}), {}).value();
  EXPECT_EQ(d.dtype(), DType::float64);
  EXPECT_EQ(d.sizes(), Shape{});
  EXPECT_EQ(d.to_doubles(), (std::vector<double>{0.1 + 0.2 + 0.3}));
}

TEST(SumToTensor, AnyLayoutOfTheGradient) {
  // [[0, 1, 2], [3, 4, 5]] transposed to [3, 2], summed over its leading axis: [0+1+2, 3+4+5].
  const Tensor t = Tensor::from_values({2, 3}, DType::float64, {0, 1, 2, 3, 4, 5}).transpose(0, 1).value();
  EXPECT_EQ(sum_to(t, {2}).value().to_doubles(), (std::vector<double>{3, 12}));
  EXPECT_EQ(sum_to(t, {3, 1}).value().to_doubles(), (std::vector<double>{3, 5, 7}));
  const Tensor zero = Tensor::zeros({4, 0}, DType::float32);
  EXPECT_EQ(sum_to(zero, {4, 1}).value().to_doubles(), (std::vector<double>{0, 0, 0, 0}));
}

TEST(SumToTensor, BadTargetsAreRefusedWithThePlansError) {
  const Tensor grad = Tensor::zeros({2, 3}, DType::float32);
  for (const Shape& to : {Shape{4, 3}, Shape{1, 2, 3}, Shape{2}}) {
    Result<Tensor> r = sum_to(grad, to);
    ASSERT_FALSE(r.ok()) << format_shape(to);
    EXPECT_EQ(r.error(), plan_sum_to({2, 3}, to).error());
    EXPECT_EQ(r.error().kind, ErrorKind::sum_to);
  }
  Result<Tensor> ints = sum_to(Tensor::zeros({2, 3}, DType::int64), {3});
  ASSERT_FALSE(ints.ok());
  EXPECT_EQ(ints.error().kind, ErrorKind::invalid_argument);
}

// Expand then sum: every element of x appears (product of the stretched sizes) times in the expanded tensor, so
// summing it back gives x times that factor. Small integer values keep every sum exact in float32.
RC_GTEST_PROP(SumToTensorProperty, SummingAnExpandedTensorMultipliesByTheStretchFactor, ()) {
  const Shape from = *gen::shape();
  const Shape to = *gen::operand_of(from);
  const DType dtype = *rc::gen::element(DType::float32, DType::float64);
  const bool ones = *rc::gen::arbitrary<bool>();
  std::vector<double> x(static_cast<size_t>(numel(to)), 1.0);
  if (!ones) x = *rc::gen::container<std::vector<double>>(x.size(), rc::gen::map(rc::gen::inRange(-8, 9), [](int v) {
    return static_cast<double>(v);
  }));
  const SumToPlan plan = plan_sum_to(from, to).value();
  int64_t factor = 1;
  for (int64_t axis : plan.axes) factor *= from[static_cast<size_t>(axis)];
  RC_CLASSIFY(ones, "all ones");
  RC_CLASSIFY(factor == 0, "stretched over a size-0 axis");
  RC_CLASSIFY(factor > 1, "stretched");
  RC_CLASSIFY(to.empty(), "rank-0 target");

  const Tensor expanded = Tensor::from_values(to, dtype, x).expand(from).value();
  const Tensor r = sum_to(expanded, to).value();
  RC_ASSERT(r.dtype() == dtype);
  RC_ASSERT(r.sizes() == to);
  std::vector<double> want = x;
  for (double& v : want) v *= static_cast<double>(factor);
  RC_ASSERT(r.to_doubles() == want);
}

}  // namespace bc
