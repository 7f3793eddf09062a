// Fixed-rank xt::xtensor<T, N>: the values of the plain path where operands share a rank; an in-place self is an
// owning container, which resizes to a larger result (where the plain path's adaptor over the case's memory cannot).
#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"
#include "oracles/xtensor_variants.h"

namespace bc {

using testing::make_case;

TEST(XtensorRank, EveryRankUpToFourGivesTheEnginesValues) {
  auto rank = make_xtensor_rank_oracle();
  const std::vector<std::vector<Shape>> cases = {
      {{}, {}}, {{3}, {1}}, {{2, 1}, {1, 3}}, {{2, 1, 3}, {1, 4, 1}}, {{1, 2, 1, 3}, {2, 1, 2, 1}}};
  for (const auto& shapes : cases) {
    Case c = make_case("sub", shapes);
    c.dtypes = {DType::int64, DType::int64};
    c.values = ValueSpec{2, true, {}};
    c.scalars["alpha"] = Scalar{2, true};
    const Outcome want = make_engine_oracle()->run(c);
    const Outcome got = rank->run(c);
    ASSERT_EQ(got.status, Status::ok) << format_shape(shapes[0]) << " " << got.detail;
    EXPECT_EQ(got.shape, want.shape);
    EXPECT_EQ(got.values, want.values) << format_shape(shapes[0]);
  }
}

TEST(XtensorRank, OperandsOfDifferentRanksOrAboveFourAreNotInstantiated) {
  Case c = make_case("add", {{2, 3}, {3}});
  c.values = ValueSpec{1, false, {}};
  EXPECT_EQ(make_xtensor_rank_oracle()->run(c).status, Status::unsupported);
  c.shapes = {{1, 1, 1, 1, 2}, {1, 1, 1, 1, 2}};
  EXPECT_EQ(make_xtensor_rank_oracle()->run(c).status, Status::unsupported);
}

TEST(XtensorRank, AnInPlaceSelfResizesToALargerResult) {
  Case c = make_case("add_", {{1, 3}, {2, 3}});
  c.values = ValueSpec{0, false, {{1, 2, 3}, {10, 20, 30, 40, 50, 60}}};
  const Outcome o = make_xtensor_rank_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.shape, (Shape{2, 3}));
  EXPECT_EQ(o.values, (std::vector<double>{11, 22, 33, 41, 52, 63}));
  EXPECT_EQ(make_engine_oracle()->run(c).error->kind, ErrorKind::inplace_shape);
}

TEST(XtensorRank, AnInPlaceSelfThatIsAViewIsNotACopy) {
  Case c = make_case("mul_", {{2, 3}, {2, 3}});
  c.values = ValueSpec{1, false, {}};
  c.layouts = {Layout::transposed, Layout::contiguous};
  const Outcome o = make_xtensor_rank_oracle()->run(c);
  EXPECT_EQ(o.status, Status::unsupported);
  EXPECT_NE(o.detail.find("transposed"), std::string::npos) << o.detail;
}

}  // namespace bc

namespace bc {

// One condition type per rank: a bool condition selects, another is not instantiated on this path.
TEST(XtensorRank, WhereRunsWithABoolConditionOnly) {
  Case c = testing::make_case("where", {{3}, {3}, {3}});
  c.dtypes = {DType::bool_, DType::float64, DType::float64};
  c.values = ValueSpec{0, false, {Values(std::vector<int64_t>{1, 0, 1}), {1, 2, 3}, {4, 5, 6}}};
  const Outcome o = make_xtensor_rank_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{1, 5, 3}));
  c.dtypes[0] = DType::int64;
  EXPECT_EQ(make_xtensor_rank_oracle()->run(c).status, Status::unsupported);
}

}  // namespace bc
