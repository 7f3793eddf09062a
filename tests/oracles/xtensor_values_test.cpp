#include "oracles/xtensor_values.h"

#include <cmath>

#include <gtest/gtest.h>

#include "harness/operands.h"
#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"
#include "oracles/xtensor_operands.h"

namespace bc {

using testing::make_case;

namespace {

Case values_case(const std::string& op, std::vector<Shape> shapes, std::vector<Layout> layouts, uint64_t seed = 3) {
  Case c = make_case(op, std::move(shapes));
  c.layouts = std::move(layouts);
  c.values = ValueSpec{seed, false, {}};
  return c;
}

template <class T>
const T* buffer(const xtv::Operands& ops, size_t k) {
  return std::get<std::shared_ptr<T[]>>(ops.buffers[k]).get();
}

}  // namespace

// Every layout gives xtensor the values the engine sees: the view functions build the plan's layout, not another.
TEST(XtensorValues, EveryLayoutSeesTheEnginesValues) {
  auto engine = make_engine_oracle();
  const std::vector<std::vector<Layout>> layouts = {
      {Layout::transposed, Layout::contiguous}, {Layout::contiguous, Layout::transposed},
      {Layout::strided, Layout::transposed},    {Layout::expanded, Layout::strided},
      {Layout::transposed, Layout::expanded},   {Layout::contiguous, Layout::overlapping},
      {Layout::transposed, Layout::overlapping}};
  for (const auto& l : layouts) {
    for (const std::string op : {"sub", "mul", "lt"}) {
      const Case c = values_case(op, {{2, 3, 4}, {2, 3, 4}}, l);
      const Outcome want = engine->run(c);
      const Outcome got = run_xtensor_values(c);
      ASSERT_EQ(want.status, Status::ok);
      EXPECT_EQ(got.shape, want.shape) << op << " " << to_string(l[0]) << "/" << to_string(l[1]);
      EXPECT_EQ(got.values, want.values) << op << " " << to_string(l[0]) << "/" << to_string(l[1]);
    }
  }
  // The plan really is in those layouts (not all contiguous, which would pass the loop above trivially).
  const std::vector<OperandPlan> plans = plan_operands(values_case("add", {{2, 3, 4}, {2, 3, 4}}, layouts[2]));
  EXPECT_EQ(plans[0].layout, Layout::strided);
  EXPECT_EQ(plans[1].layout, Layout::transposed);
}

TEST(XtensorValues, ATransposedOperandIsAViewOfTheBaseWithTheLastTwoDimsSwapped) {
  const Case c = values_case("add", {{2, 3}, {2, 3}}, {Layout::transposed, Layout::contiguous});
  xtv::Operands ops;
  xtv::build_operands(plan_operands(c), ops);
  const float* base = buffer<float>(ops, 0);  // allocated [3, 2]
  const auto& view = std::get<xtv::View<float>>(ops.views[0]);
  ASSERT_EQ(view.shape(), (xtv::XShape{2, 3}));
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(&view(i, j), base + j * 2 + i);
}

// xt::broadcast of the base: the stretched dim reads the same base element (stride 0), nothing is copied.
TEST(XtensorValues, AnExpandedOperandIsAStrideZeroBroadcastOfTheBase) {
  const Case c = values_case("add", {{3, 4}, {3, 4}}, {Layout::contiguous, Layout::expanded});
  const std::vector<OperandPlan> plans = plan_operands(c);
  ASSERT_EQ(plans[1].layout, Layout::expanded);
  ASSERT_EQ(plans[1].base_shape, (Shape{1, 4}));
  xtv::Operands ops;
  xtv::build_operands(plans, ops);
  const float* base = buffer<float>(ops, 1);
  const auto& input = std::get<xtv::Input<float>>(ops.inputs[1]);
  ASSERT_EQ(input.shape(), (xtv::XShape{3, 4}));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(&input(i, j), base + j);
}

TEST(XtensorValues, AnOverlappingOperandViewsTheFirstOperandsStorage) {
  Case c = values_case("add", {{2, 3}, {3}}, {Layout::contiguous, Layout::overlapping});
  xtv::Operands ops;
  xtv::build_operands(plan_operands(c), ops);
  const float* base = buffer<float>(ops, 0);
  const auto& input = std::get<xtv::Input<float>>(ops.inputs[1]);
  for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(&input(j), base + j);
}

// In place into a strided view: xtensor's computed assignment writes through the view into the base, every other
// element, and leaves the elements in between alone.
TEST(XtensorValues, InPlaceIntoAStridedViewWritesThroughToTheBase) {
  Case c = make_case("add_", {{2, 3}, {3}});
  c.layouts = {Layout::strided, Layout::contiguous};
  c.values = ValueSpec{0, false, {{1, 2, 3, 4, 5, 6}, {10, 20, 30}}};
  const std::vector<OperandPlan> plans = plan_operands(c);
  ASSERT_EQ(plans[0].base_shape, (Shape{2, 6}));
  xtv::Operands ops;
  xtv::build_operands(plans, ops);
  const Outcome o = xtv::computed_assignment(c, xtv::self_of(plans[0], ops), ops.inputs[1]);
  EXPECT_EQ(o.values, (std::vector<double>{11, 22, 33, 14, 25, 36}));
  const float* base = buffer<float>(ops, 0);
  EXPECT_EQ(std::vector<float>(base, base + 12), (std::vector<float>{11, 0, 22, 0, 33, 0, 14, 0, 25, 0, 36, 0}));
  EXPECT_EQ(run_xtensor_values(c), o);
}

TEST(XtensorValues, InPlaceIntoATransposedViewWritesTheTransposedPositions) {
  Case c = make_case("mul_", {{2, 3}, {2, 3}});
  c.layouts = {Layout::transposed, Layout::contiguous};
  c.values = ValueSpec{0, false, {{1, 2, 3, 4, 5, 6}, {2, 2, 2, 10, 10, 10}}};
  const std::vector<OperandPlan> plans = plan_operands(c);
  xtv::Operands ops;
  xtv::build_operands(plans, ops);
  xtv::computed_assignment(c, xtv::self_of(plans[0], ops), ops.inputs[1]);
  const float* base = buffer<float>(ops, 0);  // [3, 2], the view's column j is the base's row j
  EXPECT_EQ(std::vector<float>(base, base + 6), (std::vector<float>{2, 40, 4, 50, 6, 60}));
}

// An in-place op whose input overlaps self: xtensor evaluates the whole result into a temporary before it writes
// (xsemantic.hpp), so the second row adds the first row's old values; PyTorch and the engine refuse the partial
// overlap (declared: xtensor-no-overlap-check).
TEST(XtensorValues, AnOverlappingInputIsReadBeforeAnythingIsWritten) {
  Case c = make_case("add_", {{2, 3}, {3}});
  c.layouts = {Layout::contiguous, Layout::overlapping};
  c.values = ValueSpec{0, false, {{1, 2, 3, 4, 5, 6}, {}}};
  const Outcome o = run_xtensor_values(c);
  ASSERT_EQ(o.status, Status::ok);
  EXPECT_EQ(o.values, (std::vector<double>{2, 4, 6, 5, 7, 9}));
  EXPECT_EQ(make_engine_oracle()->run(c).error->kind, ErrorKind::partial_overlap);
}

// An expanded self is xtensor's stride-0 strided view (xt::broadcast cannot be written to): every write to the
// stretched dim lands on one base element, and the last one stays; PyTorch and the engine refuse the internal
// overlap (declared: xtensor-no-internal-overlap-check).
TEST(XtensorValues, AnExpandedSelfWritesEveryRowIntoTheSameBaseElements) {
  Case c = make_case("add_", {{3, 2}, {3, 2}});
  c.layouts = {Layout::expanded, Layout::contiguous};
  c.values = ValueSpec{0, false, {{1, 2, 1, 2, 1, 2}, {10, 20, 30, 40, 50, 60}}};
  const std::vector<OperandPlan> plans = plan_operands(c);
  ASSERT_EQ(plans[0].base_shape, (Shape{1, 2}));
  xtv::Operands ops;
  xtv::build_operands(plans, ops);
  const Outcome o = xtv::computed_assignment(c, xtv::self_of(plans[0], ops), ops.inputs[1]);
  const float* base = buffer<float>(ops, 0);
  EXPECT_EQ(std::vector<float>(base, base + 2), (std::vector<float>{51, 62}));
  EXPECT_EQ(o.values, (std::vector<double>{51, 62, 51, 62, 51, 62}));
  EXPECT_EQ(make_engine_oracle()->run(c).error->kind, ErrorKind::internal_overlap);
}

// A view cannot grow: xtensor would copy the larger result past the view's end, so the case is not run; a
// contiguous self is the adaptor, which refuses to resize.
TEST(XtensorValues, AnInputThatWouldEnlargeAViewIsNotRun) {
  Case c = values_case("add_", {{1, 3}, {2, 3}}, {Layout::strided, Layout::contiguous});
  const Outcome o = run_xtensor_values(c);
  EXPECT_EQ(o.status, Status::unsupported);
  EXPECT_NE(o.detail.find("past the view's end"), std::string::npos);
  c.layouts = {Layout::contiguous, Layout::contiguous};
  const Outcome adaptor = run_xtensor_values(c);
  ASSERT_EQ(adaptor.status, Status::error);
  EXPECT_EQ(adaptor.error->kind, ErrorKind::other);
  // Shapes that do not broadcast fail in xtensor before anything is written, view or not.
  c.shapes = {{2, 3}, {4}};
  c.layouts = {Layout::transposed, Layout::contiguous};
  EXPECT_EQ(run_xtensor_values(c).error->kind, ErrorKind::broadcast);
}

}  // namespace bc

namespace bc {

// The functions of the op's name, with xtensor's meaning (declared where it differs from PyTorch's).
TEST(XtensorValues, RemainderIsIeeesRemainder) {
  Case c = make_case("remainder", {{3}, {3}});
  c.values = ValueSpec{0, false, {{5, -5, 7}, {3, 3, 2}}};
  const Outcome o = run_xtensor_values(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{-1, 1, -1}));  // 5 - 2*3, -5 + 2*3, 7 - 4*2 (3.5 rounds to even 4)
  EXPECT_EQ(make_engine_oracle()->run(c).values, (std::vector<double>{2, 1, 1}));  // floor-mod
}

TEST(XtensorValues, EqAndNeCompareWholeArraysAndNeverBroadcast) {
  auto run = [](const std::string& op, std::vector<Shape> shapes, std::vector<Values> data) {
    Case c = make_case(op, std::move(shapes));
    c.values = ValueSpec{0, false, std::move(data)};
    return run_xtensor_values(c);
  };
  const Outcome same = run("eq", {{2}, {2}}, {{1, 2}, {1, 2}});
  ASSERT_EQ(same.status, Status::ok);
  EXPECT_EQ(same.shape, Shape{});
  EXPECT_EQ(same.dtype, "bool");
  EXPECT_EQ(same.values, Values(std::vector<int64_t>{1}));
  EXPECT_EQ(run("eq", {{2}, {2}}, {{1, 2}, {1, 3}}).values, Values(std::vector<int64_t>{0}));
  EXPECT_EQ(run("eq", {{2}, {1}}, {{1, 1}, {1}}).values, Values(std::vector<int64_t>{0}));  // shapes differ
  const Outcome conflict = run("ne", {{3}, {2}}, {{1, 2, 3}, {1, 2}});
  ASSERT_EQ(conflict.status, Status::ok);
  EXPECT_EQ(conflict.values, Values(std::vector<int64_t>{1}));
}

TEST(XtensorValues, WhereTestsAConditionOfAnyDtypeForTruth) {
  Case c = make_case("where", {{4}, {4}, {4}});
  c.dtypes = {DType::int64, DType::float32, DType::float32};
  c.values = ValueSpec{0, false, {Values(std::vector<int64_t>{0, 1, -3, 0}), {1, 2, 3, 4}, {5, 6, 7, 8}}};
  const Outcome o = run_xtensor_values(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{5, 2, 3, 8}));
  EXPECT_EQ(make_engine_oracle()->run(c).error->kind, ErrorKind::invalid_argument);
}

// xt::fmod is std::fmod, which takes integers as doubles: no trap on a zero divisor, a NaN instead.
TEST(XtensorValues, FmodOnIntegersComputesInDouble) {
  Case c = make_case("fmod", {{2}, {2}});
  c.dtypes = {DType::int64, DType::int64};
  c.values = ValueSpec{0, false, {Values(std::vector<int64_t>{-7, 7}), Values(std::vector<int64_t>{2, 0})}};
  const Outcome o = run_xtensor_values(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.dtype, "float64");
  EXPECT_EQ(o.values.as_double(0), -1);
  EXPECT_TRUE(std::isnan(o.values.as_double(1)));
}

}  // namespace bc
