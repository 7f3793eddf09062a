#include "oracles/engine_oracle.h"

#include <gtest/gtest.h>

#include "number_examples.h"
#include "oracle_test_util.h"

namespace bc {

using testing::make_case;

TEST(EngineOracle, AnswersEveryOpFamily) {
  auto engine = make_engine_oracle();
  EXPECT_EQ(engine->run(make_case("mul", {{2, 1}, {3}})), Outcome::success({2, 3}));
  EXPECT_EQ(engine->run(make_case("add_", {{1, 3, 1}, {3, 1, 7}})).error->kind, ErrorKind::inplace_shape);
  EXPECT_EQ(engine->run(make_case("broadcast_shapes", {{2, 1}, {3}, {4, 1, 1}})), Outcome::success({4, 2, 3}));
  EXPECT_EQ(engine->run(make_case("expand", {{3}, {2, -1}})), Outcome::success({2, 3}));
  EXPECT_EQ(engine->run(make_case("sum_to", {{4, 2, 3}, {1, 3}})), Outcome::success({1, 3}));
  EXPECT_EQ(engine->run(make_case("matmul", {{2, 3}, {3}})), Outcome::success({2}));
}

}  // namespace bc

namespace bc {

TEST(EngineOracle, RunsAGraphForwardAndBackward) {
  testing::expect_graph_example(make_engine_oracle()->run(testing::graph_example()));
}

// Number operands (x + 2.5, x.mul_(3), where(c, x, 2.5)): the values worked out by hand in oracle_test_util.h.
TEST(EngineOracleNumbers, AnswerTheHandDerivedExamples) { testing::expect_number_examples(*make_engine_oracle()); }

}  // namespace bc
