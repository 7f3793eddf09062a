// Running a case (run_case: the calls only) and judging it afterwards (judge_case), as a run's window does.
#include "run/evaluate.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "oracles/engine_oracle.h"
#include "properties/registry.h"
#include "properties/shape_gen.h"

namespace bc {
namespace {

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

// A run makes a window's oracle calls with run_case() and judges afterwards with judge_case() (run/runner.cpp): the
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

}  // namespace bc
