// Shape-level shrinking without a generator: the candidates case_shrink_candidates offers (valid, smaller, no
// duplicates, never an operand fewer for a fixed-arity op), and shrinkable_case offering them as shrinks.
#include "properties/case_shrinks.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace bc {
namespace {

Case make(const std::string& op, std::vector<Shape> shapes) {
  Case c;
  c.op = op_from_name(op).value();
  c.shapes = std::move(shapes);
  return c;
}

bool contains(const std::vector<Case>& cases, const std::vector<Shape>& shapes) {
  return std::any_of(cases.begin(), cases.end(), [&](const Case& c) { return c.shapes == shapes; });
}

std::string list(const std::vector<Case>& cases) {
  std::string out;
  for (const Case& c : cases) out += describe(c) + "\n";
  return out;
}

}  // namespace

TEST(CaseShrinkCandidates, EveryCandidateParsesAgain) {
  Case with_expect = make("add", {{2, 3}, {3}});
  with_expect.expect = Expectation{};
  with_expect.expect->shape = Shape{2, 3};
  const std::vector<Case> inputs = {
      make("add", {{4, 1, 3}, {3}}),      make("div_", {{5, 0, 2}, {2}}),        make("broadcast_shapes", {{2}, {3, 1}, {}}),
      make("expand", {{3, 1}, {-1, 4, 6}}), make("sum_to", {{6, 3}, {1, 3}}),      make("matmul", {{2, 3, 4}, {4, 5}}),
      make("broadcast_shapes", {{7}}),    with_expect,
  };
  for (const Case& c : inputs) {
    const std::vector<Case> candidates = case_shrink_candidates(c);
    EXPECT_FALSE(candidates.empty()) << describe(c);
    for (const Case& t : candidates) {
      EXPECT_EQ(t.op, c.op);
      EXPECT_EQ(to_json(case_from_json(to_json(t))), to_json(t)) << describe(c) << " -> " << describe(t);
    }
  }
}

TEST(CaseShrinkCandidates, BroadcastShapesOffersEveryTwoShapeSubset) {
  const Case c = make("broadcast_shapes", {{2, 1}, {3}, {5, 1, 1}});
  const std::vector<Case> candidates = case_shrink_candidates(c);
  EXPECT_TRUE(contains(candidates, {{3}, {5, 1, 1}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{2, 1}, {5, 1, 1}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{2, 1}, {3}})) << list(candidates);
  // Operands are dropped first, in order.
  ASSERT_GE(candidates.size(), 3u);
  EXPECT_EQ(candidates[0].shapes, (std::vector<Shape>{{3}, {5, 1, 1}}));
  EXPECT_EQ(candidates[1].shapes, (std::vector<Shape>{{2, 1}, {5, 1, 1}}));
  EXPECT_EQ(candidates[2].shapes, (std::vector<Shape>{{2, 1}, {3}}));
}

TEST(CaseShrinkCandidates, SingleOperandBroadcastShapesKeepsItsOperand) {
  const std::vector<Case> candidates = case_shrink_candidates(make("broadcast_shapes", {{4}}));
  for (const Case& t : candidates) EXPECT_EQ(t.shapes.size(), 1u) << describe(t);
  EXPECT_TRUE(contains(candidates, {{}}));
  EXPECT_TRUE(contains(candidates, {{1}}));
  EXPECT_TRUE(contains(candidates, {{2}}));
  EXPECT_TRUE(contains(candidates, {{3}}));
  EXPECT_EQ(candidates.size(), 4u) << list(candidates);
}

TEST(CaseShrinkCandidates, OpDropsDimsAndLowersSizesButKeepsBothOperands) {
  const Case c = make("add", {{4, 1, 3}, {3}});
  const std::vector<Case> candidates = case_shrink_candidates(c);
  // Each dim dropped.
  EXPECT_TRUE(contains(candidates, {{1, 3}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{4, 3}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{4, 1}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{4, 1, 3}, {}})) << list(candidates);
  // 4 -> 1, 4 / 2, 4 - 1.
  EXPECT_TRUE(contains(candidates, {{1, 1, 3}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{2, 1, 3}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{3, 1, 3}, {3}})) << list(candidates);
  // 3 -> 1 and 3 -> 2 (3 / 2 is 1 again: offered once).
  EXPECT_TRUE(contains(candidates, {{4, 1, 1}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{4, 1, 2}, {3}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{4, 1, 3}, {1}})) << list(candidates);
  EXPECT_TRUE(contains(candidates, {{4, 1, 3}, {2}})) << list(candidates);
  for (const Case& t : candidates) {
    EXPECT_EQ(t.shapes.size(), 2u) << "an operand of a binary op was dropped: " << describe(t);
    EXPECT_NE(t.shapes, c.shapes) << "a candidate equal to the input";
  }
  for (size_t i = 0; i < candidates.size(); ++i)
    for (size_t j = i + 1; j < candidates.size(); ++j)
      EXPECT_NE(candidates[i].shapes, candidates[j].shapes) << "duplicate: " << describe(candidates[i]);
  // The whole list, in the documented order: dims dropped, then sizes towards 1, halved, one less.
  const std::vector<std::vector<Shape>> expected = {
      {{1, 3}, {3}},    {{4, 3}, {3}},    {{4, 1}, {3}},    {{4, 1, 3}, {}},  {{1, 1, 3}, {3}}, {{2, 1, 3}, {3}},
      {{3, 1, 3}, {3}}, {{4, 1, 1}, {3}}, {{4, 1, 2}, {3}}, {{4, 1, 3}, {1}}, {{4, 1, 3}, {2}},
  };
  std::vector<std::vector<Shape>> got;
  for (const Case& t : candidates) got.push_back(t.shapes);
  EXPECT_EQ(got, expected) << list(candidates);
}

TEST(CaseShrinkCandidates, SizeTwoGoesToOneOnlyOnce) {
  const std::vector<Case> candidates = case_shrink_candidates(make("mul", {{2}, {}}));
  std::vector<std::vector<Shape>> got;
  for (const Case& t : candidates) got.push_back(t.shapes);
  EXPECT_EQ(got, (std::vector<std::vector<Shape>>{{{}, {}}, {{1}, {}}}));
}

TEST(CaseShrinkCandidates, NoCandidateEqualsTheInput) {
  const std::vector<Case> inputs = {make("add", {{1, 1}, {1}}), make("sub", {{0, 5}, {1}}),
                                    make("broadcast_shapes", {{2}, {2}, {2}}), make("expand", {{1}, {-1, 2}}),
                                    make("sum_to", {{1}, {1}})};
  for (const Case& c : inputs)
    for (const Case& t : case_shrink_candidates(c)) EXPECT_NE(t.shapes, c.shapes) << describe(c);
}

TEST(CaseShrinkCandidates, RankZeroCaseHasNone) {
  EXPECT_TRUE(case_shrink_candidates(make("add", {{}, {}})).empty());
  EXPECT_TRUE(case_shrink_candidates(make("matmul", {{}, {}})).empty());
  EXPECT_TRUE(case_shrink_candidates(make("broadcast_shapes", {{}})).empty());
  // Several rank-0 operands of broadcast_shapes can still lose one.
  const std::vector<Case> fewer = case_shrink_candidates(make("broadcast_shapes", {{}, {}}));
  ASSERT_FALSE(fewer.empty());
  for (const Case& t : fewer) EXPECT_EQ(t.shapes, (std::vector<Shape>{{}}));
}

TEST(CaseShrinkCandidates, ShrinkableCaseOffersTheCandidatesAsShrinks) {
  const Case c = make("add", {{4, 1, 3}, {3}});
  const rc::Shrinkable<Case> s = shrinkable_case(c);
  EXPECT_EQ(s.value().shapes, c.shapes);
  const std::vector<Case> candidates = case_shrink_candidates(c);
  auto shrinks = s.shrinks();
  size_t n = 0;
  while (auto next = shrinks.next()) {
    ASSERT_LT(n, candidates.size());
    EXPECT_EQ(next->value().shapes, candidates[n].shapes);
    ++n;
  }
  EXPECT_EQ(n, candidates.size());
}

}  // namespace bc
