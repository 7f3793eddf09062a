#include "oracles/xtensor_oracle.h"

#include <cmath>

#include <gtest/gtest.h>

#include "oracle_test_util.h"

namespace bc {

using testing::make_case;

// These pin down what xtensor 0.24 really does, including where it departs from PyTorch's rules
// (declared in corpus/known_divergences.jsonl).
class XtensorOracleTest : public ::testing::Test {
 protected:
  std::unique_ptr<Oracle> xt = make_xtensor_oracle();
};

TEST_F(XtensorOracleTest, BroadcastsLikeNumpy) {
  EXPECT_EQ(xt->run(make_case("add", {{6, 1, 5}, {3, 5}})), Outcome::success({6, 3, 5}));
  EXPECT_EQ(xt->run(make_case("mul", {{}, {2, 2}})), Outcome::success({2, 2}));
  EXPECT_EQ(xt->run(make_case("sub", {{1}, {0}})), Outcome::success({0}));
  EXPECT_EQ(xt->run(make_case("div", {{2, 3}, {2, 4}})).error->kind, ErrorKind::broadcast);
  EXPECT_EQ(xt->run(make_case("broadcast_shapes", {{2, 1}, {3}, {4, 1, 1}})), Outcome::success({4, 2, 3}));
  EXPECT_EQ(xt->run(make_case("broadcast_shapes", {{2, 1}, {3}, {4, 1, 5}})).error->kind, ErrorKind::broadcast);
}

TEST_F(XtensorOracleTest, ComputedAssignmentResizesTheLeftSide) {
  EXPECT_EQ(xt->run(make_case("add_", {{1, 3, 1}, {3, 1, 7}})), Outcome::success({3, 3, 7}));
  EXPECT_EQ(xt->run(make_case("mul_", {{2, 3}, {4}})).error->kind, ErrorKind::broadcast);
}

TEST_F(XtensorOracleTest, BroadcastToATargetOfOneKeepsTheSourceSize) {
  EXPECT_EQ(xt->run(make_case("expand", {{3}, {1}})), Outcome::success({3}));
  EXPECT_EQ(xt->run(make_case("expand", {{3}, {2, 3}})), Outcome::success({2, 3}));
  EXPECT_EQ(xt->run(make_case("expand", {{3, 1}, {2}})).error->kind, ErrorKind::expand);
  EXPECT_EQ(xt->run(make_case("expand", {{3}, {2, -1}})).status, Status::unsupported);
}

TEST_F(XtensorOracleTest, SumToComposesSumAndReshape) {
  EXPECT_EQ(xt->run(make_case("sum_to", {{2, 2, 2, 2, 2}, {1, 1, 2, 2, 1}})), Outcome::success({1, 1, 2, 2, 1}));
  EXPECT_EQ(xt->run(make_case("sum_to", {{2, 3}, {}})), Outcome::success({}));
  EXPECT_EQ(xt->run(make_case("sum_to", {{2, 3}, {4, 3}})).error->kind, ErrorKind::sum_to);
  EXPECT_EQ(xt->run(make_case("sum_to", {{2, 3}, {1, 2, 3}})), Outcome::success({1, 2, 3}));  // reshape allows it
}

// Value-level cases: xtensor's own operators, with C++'s conversions (layouts: xtensor_values_test.cpp).
TEST_F(XtensorOracleTest, ValuesFollowCppArithmetic) {
  Case c = make_case("add", {{3}, {3}});
  c.values = ValueSpec{0, false, {{1, 2, 3}, {10, 20, 30}}};
  Outcome sum = xt->run(c);
  EXPECT_EQ(sum.dtype, "float32");
  EXPECT_EQ(sum.values, (std::vector<double>{11, 22, 33}));
  Case div = make_case("div", {{2}, {2}});
  div.dtypes = {DType::int64, DType::int64};
  div.values = ValueSpec{0, false, {{7, -7}, {2, 2}}};
  const Outcome q = xt->run(div);
  EXPECT_EQ(q.dtype, "int64");  // integer division, where PyTorch divides truly
  EXPECT_EQ(q.values, Values(std::vector<int64_t>{3, -3}));
  Case max = make_case("maximum", {{1}, {1}});
  max.values = ValueSpec{0, false, {{NAN}, {-1}}};
  EXPECT_EQ(xt->run(max).values, (std::vector<double>{-1}));  // no NaN propagation
  Case lerp = make_case("lerp", {{1}, {1}, {1}});
  lerp.values = ValueSpec{1, false, {}};
  EXPECT_EQ(xt->run(lerp).status, Status::unsupported);
}

// xtensor has no matmul; the oracle writes one with xtensor's broadcasting (docs/notes/xtensor-products.md), so a
// shape-level matmul case runs too, on zeros.
TEST_F(XtensorOracleTest, MatmulShapesComeFromXtensorsBroadcasting) {
  EXPECT_EQ(xt->run(make_case("matmul", {{2, 3}, {3}})).shape, (Shape{2}));
  EXPECT_EQ(xt->run(make_case("matmul", {{2, 5, 7}, {5, 2, 7, 3}})).shape, (Shape{5, 2, 5, 3}));  // seed 003
  EXPECT_EQ(xt->run(make_case("matmul", {{4, 2, 3, 5}, {3, 2, 5, 6}})).error->kind, ErrorKind::broadcast);
}

}  // namespace bc
