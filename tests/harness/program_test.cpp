// Programs of the op "graph": parsing and its refusals, the readable form, dropping nodes and inputs (a program
// stays valid), and the structural coverage classes.
#include "harness/program.h"

#include <gtest/gtest.h>

#include "harness/case.h"

namespace bc {
namespace {

using json = nlohmann::json;

Case graph(const std::string& program, const std::string& shapes = "[[2], [1]]") {
  return case_from_json(json::parse(R"({"op": "graph", "shapes": )" + shapes + R"(, "program": )" + program + "}"));
}

std::string refusal(const std::string& text) {
  try {
    case_from_json(json::parse(text));
  } catch (const CaseError& e) {
    return e.what();
  }
  return "";
}

TEST(Program, ParsesNodesOverInputsAndEarlierNodes) {
  const Case c = graph(R"([{"op": "mul", "args": [0, 1]}, {"op": "exp", "args": [2]}])");
  ASSERT_EQ(c.program.size(), 2u);
  EXPECT_EQ(c.program[0], (ProgramNode{Op::mul, {0, 1}}));
  EXPECT_EQ(c.program[1], (ProgramNode{Op::exp, {2}}));
  EXPECT_EQ(case_from_json(to_json(c)).program, c.program);
  EXPECT_TRUE(same_case(case_from_json(to_json(c)), c));
  EXPECT_EQ(describe(c), "graph([2], [1]: t2 = mul(x0, x1); t3 = exp(t2))");
}

TEST(Program, RefusesWhatIsNotAProgramWithAReason) {
  const std::string head = R"({"op": "graph", "shapes": [[2], [1]], "program": )";
  EXPECT_NE(refusal(R"({"op": "graph", "shapes": [[2]]})").find("needs a \"program\""), std::string::npos);
  EXPECT_NE(refusal(head + "[]}").find("at least one node"), std::string::npos);
  EXPECT_NE(refusal(head + R"([{"op": "matmul", "args": [0, 1]}]})").find("cannot stand in a program"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"([{"op": "add_", "args": [0, 1]}]})").find("cannot stand in a program"),
            std::string::npos);
  EXPECT_NE(refusal(head + R"([{"op": "nope", "args": [0]}]})").find("unknown op \"nope\""), std::string::npos);
  EXPECT_NE(refusal(head + R"([{"op": "mul", "args": [0]}]})").find("takes 2 args, got 1"), std::string::npos);
  // A node may read only earlier nodes: node 0 is value 2, so it cannot read 2.
  EXPECT_NE(refusal(head + R"([{"op": "mul", "args": [0, 2]}]})").find("arg 2 names neither"), std::string::npos);
  EXPECT_NE(refusal(head + R"([{"op": "mul", "args": [0, -1]}]})").find("arg -1"), std::string::npos);
  EXPECT_NE(refusal(head + R"([{"op": "mul"}]})").find("must be an array of nodes"), std::string::npos);
  EXPECT_NE(refusal(R"({"op": "add", "shapes": [[2], [1]], "program": []})").find("goes with op \"graph\" only"),
            std::string::npos);
}

TEST(Program, DroppingANodeBypassesItAndRenumbers) {
  // t2 = mul(x0, x1); t3 = exp(t2); t4 = add(t3, t2)
  const Program p = {{Op::mul, {0, 1}}, {Op::exp, {2}}, {Op::add, {3, 2}}};
  const std::vector<bool> no_bools = {false, false};
  // Without exp: its use reads its argument t2 instead.
  EXPECT_EQ(drop_node(p, 1, no_bools), (Program{{Op::mul, {0, 1}}, {Op::add, {2, 2}}}));
  // Without mul: its uses read x0.
  EXPECT_EQ(drop_node(p, 0, no_bools), (Program{{Op::exp, {0}}, {Op::add, {2, 0}}}));
  // Without the last node, the one before it is the result.
  EXPECT_EQ(drop_node(p, 2, no_bools), (Program{{Op::mul, {0, 1}}, {Op::exp, {2}}}));
  for (size_t j = 0; j < p.size(); ++j) EXPECT_EQ(program_error(*drop_node(p, j, no_bools), 2), "");
  EXPECT_FALSE(drop_node({{Op::neg, {0}}}, 0, no_bools)) << "a program keeps one node";
}

TEST(Program, DroppingNeverLeavesAWhereWithoutABoolCondition) {
  // t3 = gt(x0, x1); t4 = where(t3, x0, x2); x2 is a float.
  const Program p = {{Op::gt, {0, 1}}, {Op::where, {3, 0, 2}}};
  EXPECT_FALSE(drop_node(p, 0, {false, false, false})) << "the comparison would bypass to the float x0";
  // Dropping the where itself bypasses to its first branch, not to the condition.
  EXPECT_EQ(drop_node(p, 1, {false, false, false}), (Program{{Op::gt, {0, 1}}}));
  // With a bool x0, where(x0, x0, x2) is fine.
  EXPECT_TRUE(drop_node(p, 0, {true, false, false}));
}

TEST(Program, DroppingAnUnusedInputRenumbers) {
  const Program p = {{Op::mul, {0, 2}}, {Op::neg, {3}}};
  EXPECT_FALSE(uses_input(p, 1));
  EXPECT_TRUE(uses_input(p, 2));
  EXPECT_EQ(drop_input(p, 1), (Program{{Op::mul, {0, 1}}, {Op::neg, {2}}}));
  EXPECT_EQ(program_error(drop_input(p, 1), 2), "");
}

TEST(Program, ClassesNameTheShape) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(program_classes({{Op::mul, {0, 1}}, {Op::exp, {2}}}, 2), (Names{"graph chain", "graph nodes 2"}));
  // An input used twice is not a diamond of nodes; a node used twice is.
  EXPECT_EQ(program_classes({{Op::mul, {0, 0}}, {Op::exp, {2}}}, 2)[0], "graph chain");
  EXPECT_EQ(program_classes({{Op::maximum, {0, 1}}, {Op::gt, {2, 1}}, {Op::where, {3, 2, 0}}}, 2),
            (Names{"graph diamond", "graph nodes 3", "graph where", "graph maximum/minimum"}));
}

}  // namespace
}  // namespace bc
