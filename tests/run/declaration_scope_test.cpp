// Which cases count towards a declaration's staleness, from hand-built records: the check it is matched by, a
// gradient case for a gradient declaration, and for numbers the rule's expected outcome and a second voter.
#include "run/declaration_scope.h"

#include <gtest/gtest.h>

#include "../harness/registered.h"

namespace bc {
namespace {

Declaration declare(const char* text) { return declaration_from_json(nlohmann::json::parse(text)); }

CaseRecord record(const char* c, Outcomes outcomes) {
  CaseRecord r;
  r.c = case_from_json(nlohmann::json::parse(c));
  r.outcomes = std::move(outcomes);
  return r;
}

TEST(DeclarationScope, EquivalenceAndFiniteDifferenceDeclarationsCountOnlyUnderTheirCheck) {
  const Declaration eq = declare(R"({"id": "e", "oracle": "torch", "on": "equivalence", "reason": "r", "reference": "f"})");
  const Declaration fd = declare(R"({"id": "f", "oracle": "engine", "on": "grads", "difference": "finite differences",
                                     "reason": "r", "reference": "f"})");
  const CaseRecord r = record(R"({"op": "addcmul", "shapes": [[], [], []]})", {});
  EXPECT_TRUE(could_explain(eq, Check::equivalence, r));
  EXPECT_FALSE(could_explain(eq, Check::oracles, r));
  EXPECT_TRUE(could_explain(fd, Check::finite_differences, r));
  EXPECT_FALSE(could_explain(fd, Check::oracles, r));
  const Declaration outcome = declare(R"({"id": "o", "oracle": "torch", "reason": "r", "reference": "f"})");
  EXPECT_TRUE(could_explain(outcome, Check::oracles, r));
  EXPECT_FALSE(could_explain(outcome, Check::equivalence, r));
}

TEST(DeclarationScope, AGradientDeclarationCountsOnlyGradientCases) {
  const Declaration g = declare(R"({"id": "g", "oracle": "xtensor", "on": "grads", "reason": "r", "reference": "f"})");
  const Outcomes both = {{"engine", Outcome::success({2})}, {"xtensor", Outcome::success({2})}};
  EXPECT_FALSE(could_explain(g, Check::oracles, record(R"({"op": "add", "shapes": [[2], [2]]})", both)));
  EXPECT_TRUE(could_explain(
      g, Check::oracles, record(R"({"op": "add", "shapes": [[2], [2]], "requires_grad": [true, false]})", both)));
}

TEST(DeclarationScope, NumbersNeedTheRulesExpectedOutcomeAndASecondVoterThatComputed) {
  const Declaration v = declare(R"({"id": "v", "oracle": "xtensor", "on": "values", "expected": {"status": "error"},
                                    "reason": "r", "reference": "f"})");
  const char* c = R"({"op": "mean", "shapes": [[2]], "dtypes": ["int64"], "values": {"seed": 1}})";
  const Outcome refused = Outcome::failure(ErrorKind::invalid_argument, "no");
  // The rule refused, and only xtensor computed: nothing to hold its numbers against (NumPy absent).
  EXPECT_FALSE(could_explain(v, Check::oracles, record(c, {{"engine", refused}, {"xtensor", Outcome::success({})}})));
  Registered numpy{"numpy"};
  EXPECT_TRUE(could_explain(v, Check::oracles, record(c, {{"engine", refused}, {"xtensor", Outcome::success({})},
                                                          {"numpy", Outcome::success({})}})));
  // The rule computed, against the declaration's expected refusal.
  EXPECT_FALSE(could_explain(v, Check::oracles, record(c, {{"engine", Outcome::success({})}, {"xtensor", Outcome::success({})},
                                                           {"numpy", Outcome::success({})}})));
}

}  // namespace
}  // namespace bc
