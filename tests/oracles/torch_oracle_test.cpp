#include "oracles/torch_oracle.h"

#include <gtest/gtest.h>

#include "number_examples.h"
#include "oracle_test_util.h"

namespace bc {

using testing::make_case;

class TorchOracleTest : public ::testing::Test {
 protected:
  std::unique_ptr<Oracle> torch = make_torch_oracle();
};

TEST_F(TorchOracleTest, ReportsVersion) { EXPECT_NE(torch->version().find("1.13"), std::string::npos); }

TEST_F(TorchOracleTest, BroadcastsRealTensors) {
  EXPECT_EQ(torch->run(make_case("add", {{2, 3}, {3}})), Outcome::success({2, 3}, "float32"));
  EXPECT_EQ(torch->run(make_case("div", {{}, {2, 2}})), Outcome::success({2, 2}, "float32"));  // rank 0 broadcasts
  EXPECT_EQ(torch->run(make_case("mul", {{1}, {0}})), Outcome::success({0}, "float32"));
  Outcome o = torch->run(make_case("sub", {{5, 2, 4, 1}, {3, 1, 1}}));
  ASSERT_EQ(o.status, Status::error);
  EXPECT_EQ(o.error->kind, ErrorKind::broadcast);
  EXPECT_EQ(o.error->message,
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1");
}

TEST_F(TorchOracleTest, InPlaceKeepsSelfsShape) {
  EXPECT_EQ(torch->run(make_case("add_", {{5, 3, 4, 1}, {3, 1, 1}})), Outcome::success({5, 3, 4, 1}, "float32"));
  Outcome o = torch->run(make_case("add_", {{1, 3, 1}, {3, 1, 7}}));
  ASSERT_EQ(o.status, Status::error);
  EXPECT_EQ(o.error->kind, ErrorKind::inplace_shape);
  EXPECT_EQ(o.error->message, "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]");
}

TEST_F(TorchOracleTest, ExpandAndBroadcastTensors) {
  EXPECT_EQ(torch->run(make_case("expand", {{3, 1}, {2, 3, -1}})), Outcome::success({2, 3, 1}, "float32"));
  EXPECT_EQ(torch->run(make_case("expand", {{3}, {1}})).error->kind, ErrorKind::expand);
  EXPECT_EQ(torch->run(make_case("broadcast_shapes", {{2, 1}, {3}, {4, 1, 1}})), Outcome::success({4, 2, 3}, "float32"));
}

TEST_F(TorchOracleTest, SumToIsCalledUncheckedExceptWhereItWouldReadOutOfBounds) {
  EXPECT_EQ(torch->run(make_case("sum_to", {{3}, {1}})), Outcome::success({1}, "float32"));
  // Precondition broken, nothing to sum: LibTorch hands the tensor back unchanged (docs/notes/sum-to-precondition.md).
  EXPECT_EQ(torch->run(make_case("sum_to", {{2, 3}, {4, 3}})), Outcome::success({2, 3}, "float32"));
  Outcome view_error = torch->run(make_case("sum_to", {{2, 3}, {4}}));
  ASSERT_EQ(view_error.status, Status::error);
  EXPECT_EQ(view_error.error->kind, ErrorKind::sum_to);
  EXPECT_EQ(view_error.error->message, "shape '[4]' is invalid for input of size 3");
  EXPECT_EQ(torch->run(make_case("sum_to", {{2, 3}, {1, 2, 3}})).status, Status::unsupported);
}

TEST_F(TorchOracleTest, MatmulFollowsNumpyAndReportsItsPath) {
  EXPECT_EQ(torch->run(make_case("matmul", {{3, 4}, {2, 5, 4, 6}})), Outcome::success({2, 5, 3, 6}, "float32"));
  EXPECT_EQ(torch->run(make_case("matmul", {{3}, {3}})), Outcome::success({}, "float32"));
  Outcome o = torch->run(make_case("matmul", {{2, 3}, {2, 4, 5}}));
  ASSERT_EQ(o.status, Status::error);
  EXPECT_EQ(o.error->kind, ErrorKind::matmul_shape);
  EXPECT_EQ(o.error->message, "mat1 and mat2 shapes cannot be multiplied (10x4 and 3x2)");
}

}  // namespace bc

namespace bc {

TEST(TorchOracleGraph, RunsAGraphForwardAndBackward) {
  testing::expect_graph_example(make_torch_oracle()->run(testing::graph_example()));
}

// Number operands (x + 2.5, x.mul_(3), where(c, x, 2.5)): the values worked out by hand in oracle_test_util.h.
TEST(TorchOracleNumbers, AnswerTheHandDerivedExamples) { testing::expect_number_examples(*make_torch_oracle()); }

}  // namespace bc
