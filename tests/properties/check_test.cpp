#include "properties/check.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "engine/broadcast.h"
#include "oracles/engine_oracle.h"
#include "properties/registry.h"
#include "properties/shape_gen.h"

namespace bc {
namespace {

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

// The engine under another name, counting its calls; `planted` makes every outcome an error of its own.
class CountingOracle : public Oracle {
 public:
  CountingOracle(std::string name, int& calls, bool planted) : name_(std::move(name)), calls_(calls), planted_(planted) {}
  std::string name() const override { return name_; }
  std::string version() const override { return "test"; }
  Outcome run(const Case& c) override {
    ++calls_;
    return planted_ ? Outcome::failure(ErrorKind::other, "planted") : engine_->run(c);
  }

 private:
  std::string name_;
  int& calls_;
  bool planted_;
  std::unique_ptr<Oracle> engine_ = make_engine_oracle();
};

std::vector<std::unique_ptr<Oracle>> counting_oracles(int& calls, bool plant_in_torch) {
  std::vector<std::unique_ptr<Oracle>> out;
  out.push_back(std::make_unique<CountingOracle>("engine", calls, false));
  out.push_back(std::make_unique<CountingOracle>("torch", calls, plant_in_torch));
  return out;
}

}  // namespace

// A run makes a window's oracle calls with run_case() and judges afterwards with judge_case() (cli/run.cpp): the
// judging must call no oracle (but the gradient check's finite differences), and must judge the outcomes kept.
// "torch" fails every case, so a run_case() that judged early would record a discrepancy where every property that
// compares oracles must still say nothing, and judge_case() must then find it.
TEST(RunCase, MakesTheCallsAndJudgeCaseNone) {
  int calls = 0;
  auto oracles = counting_oracles(calls, true);
  for (const Property& p : properties())
    for (uint64_t i = 0; i < 20; ++i) {
      const Case c = p.gen(rc::Random(rc::Random::Key{3, i, 0, 0}), rc::kNominalSize).value();
      const int before = calls;
      CaseRecord r = run_case(p.name, c, oracles);
      const int made = calls - before;
      EXPECT_GT(made, 0) << p.name << ": " << describe(c);
      EXPECT_EQ(r.outcomes.size(), static_cast<size_t>(made)) << p.name;
      EXPECT_EQ(r.judgement.verdict, Verdict::agree) << p.name << ": run_case judged";
      EXPECT_TRUE(r.judgement.signature.empty()) << p.name;
      judge_case(r, oracles, {});
      if (p.check != Check::finite_differences) {
        EXPECT_EQ(calls, before + made) << p.name << ": judge_case called an oracle";
      }
      if (p.check == Check::oracles) {
        EXPECT_EQ(r.judgement.verdict, Verdict::discrepancy) << p.name << ": judge_case did not judge";
      }
    }
}

TEST(JudgeCase, JudgesTheOutcomesRunCaseKept) {
  int calls = 0;
  auto oracles = counting_oracles(calls, true);
  const Property* p = find_property("elementwise_agree");
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->check, Check::oracles);
  const Case c = p->gen(rc::Random(rc::Random::Key{3, 0, 0, 0}), rc::kNominalSize).value();
  CaseRecord r = run_case(p->name, c, oracles);
  ASSERT_EQ(r.outcomes.size(), 2u);
  EXPECT_EQ(r.judgement.verdict, Verdict::agree);
  judge_case(r, oracles, {});
  EXPECT_EQ(r.judgement.verdict, Verdict::discrepancy) << describe(c);
  EXPECT_EQ(r.judgement.signature, evaluate(p->name, c, oracles, {}).judgement.signature);
}

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

}  // namespace bc
