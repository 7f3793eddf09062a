// The graph generator: valid programs of 2-4 nodes whose every node reaches the result, its tags, and shrinks that
// drop nodes before shapes (each a valid case).
#include "properties/graph_gen.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "properties/case_shrinks.h"

namespace bc {
namespace {

Case generated(uint64_t i) { return gen::graph_case()(rc::Random(rc::Random::Key{7, i, 0, 0})).value(); }

TEST(GraphGen, ProgramsAreValidAndEveryNodeReachesTheResult) {
  for (uint64_t i = 0; i < 200; ++i) {
    const Case c = generated(i);
    ASSERT_EQ(program_error(c.program, c.shapes.size()), "") << describe(c);
    EXPECT_GE(c.program.size(), 2u);
    EXPECT_LE(c.program.size(), 4u);
    EXPECT_TRUE(same_case(case_from_json(to_json(c)), c)) << to_json(c).dump();
    // Walking back from the result reaches every node.
    const size_t n = c.shapes.size();
    std::vector<bool> reached(c.program.size(), false);
    reached.back() = true;
    for (size_t j = c.program.size(); j-- > 0;)
      if (reached[j])
        for (int a : c.program[j].args)
          if (static_cast<size_t>(a) >= n) reached[static_cast<size_t>(a) - n] = true;
    for (size_t j = 0; j < reached.size(); ++j) EXPECT_TRUE(reached[j]) << describe(c) << " node " << j;
  }
}

// Graphs draw the four floating dtypes; one with a float16 input has no pow node (LibTorch's pow backward takes the
// base's log, which has no Half kernel on CPU), while other graphs do draw pow.
TEST(GraphGen, DrawsEveryFloatingDtypeAndNoPowBesideFloat16) {
  std::set<DType> dtypes;
  int pow_nodes = 0;
  for (uint64_t i = 0; i < 600; ++i) {
    const Case c = generated(i);
    dtypes.insert(c.dtypes.begin(), c.dtypes.end());
    const bool half = std::count(c.dtypes.begin(), c.dtypes.end(), DType::float16) > 0;
    for (const ProgramNode& node : c.program) {
      if (node.op != Op::pow) continue;
      ++pow_nodes;
      EXPECT_FALSE(half) << describe(c);
    }
  }
  EXPECT_EQ(dtypes, (std::set<DType>{DType::float32, DType::float64, DType::float16, DType::bfloat16, DType::bool_}));
  EXPECT_GT(pow_nodes, 20);
}

TEST(GraphGen, NonFiniteIntermediatesAreFoundByRunningTheProgram) {
  Case c = case_from_json(nlohmann::json::parse(
      R"({"op": "graph", "shapes": [[2], [2]], "values": {"data": [[0, 1], [2, 3]]},
          "program": [{"op": "log", "args": [0]}, {"op": "maximum", "args": [2, 1]}]})"));
  EXPECT_TRUE(gen::has_nonfinite_intermediate(c)) << "log(0) is -inf";
  c.values->data[0] = Values(std::vector<double>{1, 1});
  EXPECT_FALSE(gen::has_nonfinite_intermediate(c));
  // Only intermediates count: the result alone being infinite is not one.
  c.program = {{Op::mul, {0, 1}}, {Op::log, {0}}};
  c.values->data[0] = Values(std::vector<double>{0, 1});
  EXPECT_FALSE(gen::has_nonfinite_intermediate(c));
}

TEST(GraphGen, ShrinksDropNodesFirstAndStayValid) {
  for (uint64_t i = 0; i < 50; ++i) {
    const Case c = generated(i);
    const std::vector<Case> shrinks = case_shrink_candidates(c);
    ASSERT_FALSE(shrinks.empty());
    if (c.program.size() > 1) { EXPECT_LT(shrinks.front().program.size(), c.program.size()) << describe(c); }
    for (const Case& s : shrinks) EXPECT_EQ(program_error(s.program, s.shapes.size()), "") << describe(s);
  }
}

TEST(GraphGen, AnUnusedInputIsDroppedWithItsDtypeAndValues) {
  const Case c = case_from_json(nlohmann::json::parse(
      R"({"op": "graph", "shapes": [[2], [3], [1]], "dtypes": ["float32", "float64", "float32"],
          "requires_grad": [true, false, true], "values": {"data": [[1, 2], [3, 4, 5], [6]]},
          "program": [{"op": "mul", "args": [0, 2]}, {"op": "neg", "args": [3]}]})"));
  bool found = false;
  for (const Case& s : case_shrink_candidates(c))
    if (s.shapes.size() == 2) {
      found = true;
      EXPECT_EQ(s.shapes, (std::vector<Shape>{{2}, {1}}));
      EXPECT_EQ(s.dtypes, (std::vector<DType>{DType::float32, DType::float32}));
      EXPECT_EQ(s.requires_grad, (std::vector<bool>{true, true}));
      EXPECT_EQ(s.program, (Program{{Op::mul, {0, 1}}, {Op::neg, {2}}}));
      EXPECT_EQ(s.values->data.size(), 2u);
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace bc
