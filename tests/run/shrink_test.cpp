// The shrinker: a planted bug shrinks to a tiny case keeping its signature and verdict, within its budget, and
// follow_shrink_path replays the path shrink() took.
#include "run/shrink.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "engine/broadcast.h"
#include "oracles/engine_oracle.h"
#include "properties/case_shrinks.h"
#include "properties/shape_gen.h"

namespace bc {
namespace {

Case make(const std::string& op, std::vector<Shape> shapes) {
  Case c;
  c.op = op_from_name(op).value();
  c.shapes = std::move(shapes);
  return c;
}

// A deliberately wrong broadcast (the larger size wins, so 1 against 0 gives 1), standing in for an engine bug,
// judged against the real engine rule in the place of a library. Used only to exercise the shrinker.
Outcome planted_bug(const Case& c) {
  Shape out;
  size_t rank = 0;
  for (const Shape& s : c.shapes) rank = std::max(rank, s.size());
  for (size_t back = rank; back >= 1; --back) {
    int64_t size = 1;
    for (const Shape& s : c.shapes)
      if (s.size() >= back) size = std::max(size, s[s.size() - back]);
    out.push_back(size);
  }
  Result<Shape> right = broadcast_shapes(c.shapes);
  if (!right.ok()) return Outcome::failure(right.error().kind, right.error().message);
  return Outcome::success(out);
}

CaseRecord judge_planted(const Case& c) {
  CaseRecord r{"elementwise_agree", c, {{"engine", planted_bug(c)}, {"torch", make_engine_oracle()->run(c)}}, {}};
  r.judgement = judge(r.property, c, r.outcomes, {});
  return r;
}

// Any case with a size-0 dim is a discrepancy with one fixed signature; everything else agrees.
CaseRecord zero_size_is_a_bug(const Case& c) {
  CaseRecord r;
  r.property = "elementwise_agree";
  r.c = c;
  bool has_zero = false;
  for (const Shape& s : c.shapes)
    has_zero = has_zero || std::find(s.begin(), s.end(), int64_t{0}) != s.end();
  r.outcomes = {{"engine", Outcome::success({2})}, {"torch", Outcome::success(has_zero ? Shape{3} : Shape{2})}};
  if (has_zero) {
    r.judgement.verdict = Verdict::discrepancy;
    r.judgement.difference = "shape";
    r.judgement.odd_ones = {"torch"};
    r.judgement.attribution = "torch is the odd one out";
    r.judgement.signature = "elementwise_agree | elementwise | shape | odd: torch | planted";
  }
  return r;
}

// Every case of mul is a discrepancy with one fixed signature; every other op agrees.
CaseRecord every_mul_is_a_bug(const Case& c) {
  CaseRecord r;
  r.property = "elementwise_agree";
  r.c = c;
  if (c.op == Op::mul) {
    r.judgement.verdict = Verdict::discrepancy;
    r.judgement.signature = "elementwise_agree | elementwise | values | odd: torch | planted";
  }
  return r;
}

}  // namespace

TEST(Shrink, PlantedBroadcastBugShrinksToATinyCase) {
  int shrunk_cases = 0;
  for (uint64_t seed = 0; seed < 400 && shrunk_cases < 5; ++seed) {
    const rc::Shrinkable<Case> start = gen::elementwise_case()(rc::Random(rc::Random::Key{7, seed, 0, 0}));
    const CaseRecord first = judge_planted(start.value());
    if (first.judgement.verdict != Verdict::discrepancy) continue;
    const Shrunk s = shrink(start, first, judge_planted, 4000);
    ++shrunk_cases;
    EXPECT_EQ(s.minimal.judgement.signature, first.judgement.signature);
    EXPECT_LE(s.minimal.c.shapes.size(), 2u);
    for (const Shape& shape : s.minimal.c.shapes) {
      EXPECT_LE(shape.size(), 2u) << describe(start.value()) << " shrank to " << describe(s.minimal.c);
      for (int64_t d : shape) EXPECT_LE(d, 3) << describe(s.minimal.c);
    }
  }
  EXPECT_EQ(shrunk_cases, 5);
}

// A declaration that happens to cover the small cases of a signature must not swallow an undeclared discrepancy:
// the shrinker keeps the verdict, so the minimal case stays undeclared (and fails the run).
TEST(Shrink, KeepsTheVerdictNotOnlyTheSignature) {
  const auto declared_when_small = [](const Case& c) {
    CaseRecord r = judge_planted(c);
    const bool small = std::all_of(c.shapes.begin(), c.shapes.end(), [](const Shape& s) { return s.size() <= 1; });
    if (r.judgement.verdict == Verdict::discrepancy && small) r.judgement.verdict = Verdict::known;
    return r;
  };
  int shrunk_cases = 0;
  for (uint64_t seed = 0; seed < 400 && shrunk_cases < 5; ++seed) {
    const rc::Shrinkable<Case> start = gen::elementwise_case()(rc::Random(rc::Random::Key{7, seed, 0, 0}));
    const CaseRecord first = declared_when_small(start.value());
    if (first.judgement.verdict != Verdict::discrepancy) continue;
    const Shrunk s = shrink(start, first, declared_when_small, 4000);
    ++shrunk_cases;
    EXPECT_EQ(s.minimal.judgement.verdict, Verdict::discrepancy) << describe(s.minimal.c);
    EXPECT_GT(s.steps, 0) << "it still shrinks, among the undeclared cases: " << describe(start.value());
  }
  EXPECT_EQ(shrunk_cases, 5);
}

TEST(Shrink, StopsWithinItsBudget) {
  for (uint64_t seed = 0; seed < 400; ++seed) {
    const rc::Shrinkable<Case> start = gen::elementwise_case()(rc::Random(rc::Random::Key{7, seed, 0, 0}));
    const CaseRecord first = judge_planted(start.value());
    if (first.judgement.verdict != Verdict::discrepancy) continue;
    EXPECT_LE(shrink(start, first, judge_planted, 3).evaluations, 3);
    return;
  }
  FAIL() << "no discrepancy found to shrink";
}

// A generator's tree that offers no smaller case (as a tree may keep a rank or an operand its failure does not need):
// shrink() stays where it starts, shrink_fully() goes on through the shrinks of any case, to rank 0 here, and its
// case_path replays that second phase.
TEST(ShrinkFully, GoesOnWhereTheGeneratorsTreeStops) {
  const Case c = make("mul", {{2, 3, 4}, {3, 1}});
  const rc::Shrinkable<Case> tree = rc::shrinkable::just(c);
  const CaseRecord first = every_mul_is_a_bug(c);
  EXPECT_EQ(shrink(tree, first, every_mul_is_a_bug, 4000).steps, 0);
  const Shrunk s = shrink_fully(tree, first, every_mul_is_a_bug, 4000);
  EXPECT_EQ(s.minimal.c.shapes, (std::vector<Shape>{{}, {}}));
  EXPECT_EQ(s.minimal.judgement.signature, first.judgement.signature);
  EXPECT_TRUE(s.path.empty());
  EXPECT_EQ(s.steps, 5);  // one dim dropped per step
  EXPECT_EQ(s.case_path.size(), 5u);
  const std::optional<Case> replayed = follow_shrink_path(shrinkable_case(c), s.case_path);
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(replayed->shapes, s.minimal.c.shapes);
}

TEST(ShrinkFully, BothPhasesShareTheBudget) {
  const Case c = make("mul", {{2, 3, 4}, {3, 1}});
  const Shrunk s = shrink_fully(rc::shrinkable::just(c), every_mul_is_a_bug(c), every_mul_is_a_bug, 3);
  EXPECT_EQ(s.evaluations, 3);
  EXPECT_EQ(s.steps, 3);
}

TEST(FollowShrinkPath, EmptyPathGivesTheStart) {
  const Case c = make("add", {{3, 0, 2}, {2}});
  const std::optional<Case> got = follow_shrink_path(shrinkable_case(c), {});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->op, Op::add);
  EXPECT_EQ(got->shapes, c.shapes);
}

TEST(FollowShrinkPath, OneStepGivesThatCandidate) {
  const Case c = make("add", {{4, 1, 3}, {3}});
  const std::optional<Case> got = follow_shrink_path(shrinkable_case(c), {5});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->shapes, (std::vector<Shape>{{2, 1, 3}, {3}}));
}

TEST(FollowShrinkPath, MissingPathGivesNullopt) {
  const rc::Shrinkable<Case> start = shrinkable_case(make("add", {{4, 1, 3}, {3}}));
  EXPECT_FALSE(follow_shrink_path(start, {11}).has_value());   // 11 candidates: 0..10
  EXPECT_FALSE(follow_shrink_path(start, {999}).has_value());
  EXPECT_FALSE(follow_shrink_path(start, {0, 0, 0, 0, 0, 0}).has_value());  // four drops reach [[],[]], which has none
  EXPECT_FALSE(follow_shrink_path(shrinkable_case(make("add", {{}, {}})), {0}).has_value());
}

TEST(FollowShrinkPath, ReplaysThePathShrinkTook) {
  const Case c = make("add", {{3, 0, 2}, {2}});
  const rc::Shrinkable<Case> start = shrinkable_case(c);
  const CaseRecord first = zero_size_is_a_bug(c);
  ASSERT_EQ(first.judgement.verdict, Verdict::discrepancy);
  const Shrunk s = shrink(start, first, zero_size_is_a_bug, 4000);
  // [[3,0,2],[2]] -> drop the 3 -> [[0,2],[2]] -> drop the 2 -> [[0],[2]] -> drop the other 2 -> [[0],[]].
  EXPECT_EQ(s.minimal.c.op, Op::add);
  EXPECT_EQ(s.minimal.c.shapes, (std::vector<Shape>{{0}, {}}));
  EXPECT_EQ(s.minimal.judgement.signature, first.judgement.signature);
  EXPECT_EQ(s.path, (std::vector<std::size_t>{0, 1, 1}));
  EXPECT_EQ(s.steps, 3);
  const std::optional<Case> replayed = follow_shrink_path(start, s.path);
  ASSERT_TRUE(replayed.has_value());
  EXPECT_EQ(replayed->op, s.minimal.c.op);
  EXPECT_EQ(replayed->shapes, s.minimal.c.shapes);
}

}  // namespace bc
