// Declared departures do not vote (docs/notes/judge.md, "Declared departures"), judged from hand-built outcomes:
// an engine alone against libraries that each depart from it as declared is known, and an engine that sides with a
// library's declared departure against the others is the odd one out.
#include "harness/judge.h"

#include "judge_test_util.h"
#include "registered.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bc {
namespace {

using nlohmann::json;

// Declared departures do not vote (docs/notes/judge.md): an engine alone against libraries that each depart from it
// in a declared way is known with their declarations, so the verdict does not hang on an optional voter that keeps
// the rule. A library that stands with them without a declaration of its own still makes it the engine's finding.
TEST(DeclaredDepartures, EngineAloneAgainstOnlyDeclaredDeparturesIsKnown) {
  const Case c = make_case(R"({"op": "sum_to", "shapes": [[2,3],[4,3]]})");
  const std::vector<Declaration> decls = {
      declare(R"({"id": "torch-sum-to-unchecked", "oracle": "torch", "ops": ["sum_to"], "expected": {"error": "sum_to"},
                  "actual": {"status": "ok"}, "reason": "r", "reference": "f"})"),
      declare(R"({"id": "xtensor-sum-to-reshape", "oracle": "xtensor", "ops": ["sum_to"], "expected": {"error": "sum_to"},
                  "actual": {"status": "ok"}, "reason": "r", "reference": "f"})"),
  };
  const Outcomes outcomes = three(Outcome::failure(ErrorKind::sum_to, "no"), Outcome::success({4, 3}),
                                  Outcome::success({4, 3}));
  const Judgement j = judge("sum_to_agree", c, outcomes, decls);
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "torch-sum-to-unchecked,xtensor-sum-to-reshape");

  const std::vector<Declaration> one = {decls[0]};
  const Judgement half = judge("sum_to_agree", c, outcomes, one);
  EXPECT_EQ(half.verdict, Verdict::discrepancy) << "xtensor's departure is not declared";
  EXPECT_EQ(half.odd_ones, Names{"engine"});
  EXPECT_EQ(half.known_id, "");

  Registered fourth{"fourth"};
  Outcomes four = outcomes;
  four.emplace_back("fourth", Outcome::success({4, 3}));
  const Judgement undeclared = judge("sum_to_agree", c, four, decls);
  EXPECT_EQ(undeclared.verdict, Verdict::discrepancy) << "fourth stands with the libraries undeclared";
  EXPECT_EQ(undeclared.odd_ones, Names{"engine"});
}

// The same for numbers: the rule alone far from libraries whose values each depart from it as declared.
TEST(DeclaredDepartures, EngineValuesAloneAgainstOnlyDeclaredDeparturesAreKnown) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[2]], "values": {"seed": 1}})");
  const Outcome ok = Outcome::success({2});
  Outcome e = ok, t = ok, x = ok;
  e.values = std::vector<double>{0, 1};
  t.values = std::vector<double>{0, 5};
  x.values = std::vector<double>{0, 5};
  const std::vector<Declaration> decls = {
      declare(R"({"id": "torch-v", "oracle": "torch", "on": "values", "ops": ["add"], "reason": "r", "reference": "f"})"),
      declare(R"({"id": "xtensor-v", "oracle": "xtensor", "on": "values", "ops": ["add"], "reason": "r", "reference": "f"})"),
  };
  const Judgement j = judge("values_agree", c, three(e, t, x), decls);
  EXPECT_EQ(j.difference, "values");
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "torch-v,xtensor-v");
  EXPECT_EQ(judge("values_agree", c, three(e, t, x), {decls[1]}).verdict, Verdict::discrepancy);
}

const char* kInplaceMessage = "output with shape [1] doesn't match the broadcast shape [3]";

// xtensor resizes self where LibTorch refuses an in-place op whose result outgrows it (corpus/known_divergences.jsonl).
const char* kXtensorResizes =
    R"({"id": "xtensor-inplace-resizes", "oracle": "xtensor", "ops": ["add_"], "expected": {"error": "inplace_shape"},
        "actual": {"status": "ok"}, "reason": "resizes", "reference": "r"})";

// A planted engine bug that does what xtensor's declared departure does (it resizes self): two libraries that keep
// the rule stand against it and xtensor, so the engine is the odd one out; before, the tie named the two libraries.
TEST(DeclaredDepartures, AnEngineBesideADeclaredDepartureIsTheOddOneOut) {
  Registered fourth{"fourth"};
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  const Outcome refused = Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage);
  Outcomes outcomes = three(Outcome::success({3}), refused, Outcome::success({3}));
  outcomes.emplace_back("fourth", refused);
  const Judgement j = judge("inplace_agree", c, outcomes, {declare(kXtensorResizes)});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "status");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  ASSERT_FALSE(j.differences.empty());
  EXPECT_EQ(j.differences[0].undeclared, Names{"engine"});
  EXPECT_EQ(j.attribution, "engine is the odd one out: only xtensor stand beside it, each in a declared departure");

  // A declaration for the engine's own departure explains it; xtensor's never does.
  const Declaration engine_resizes = declare(
      R"({"id": "engine-resizes", "oracle": "engine", "ops": ["add_"], "expected": {"error": "inplace_shape"},
          "actual": {"status": "ok"}, "reason": "r", "reference": "r"})");
  const Judgement known = judge("inplace_agree", c, outcomes, {declare(kXtensorResizes), engine_resizes});
  EXPECT_EQ(known.verdict, Verdict::known);
  EXPECT_EQ(known.known_id, "engine-resizes");
}

// One voter against the rule is no majority, and a voter whose own departure from the rule is declared does not
// count among the two: in both, the library that differs from the engine undeclared stays named, as before.
TEST(DeclaredDepartures, OneUndeclaredVoterAgainstTheRuleLeavesTheBlameAsItWas) {
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  const Outcome refused = Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage);
  const Judgement one = judge("inplace_agree", c, three(Outcome::success({3}), refused, Outcome::success({3})),
                              {declare(kXtensorResizes)});
  EXPECT_EQ(one.verdict, Verdict::discrepancy);
  EXPECT_EQ(one.odd_ones, Names{"torch"});

  Registered fourth{"fourth"};
  Outcomes outcomes = three(Outcome::success({3}), refused, Outcome::success({3}));
  outcomes.emplace_back("fourth", refused);
  const Declaration fourth_refuses = declare(
      R"({"id": "fourth-refuses", "oracle": "fourth", "ops": ["add_"], "expected": {"status": "ok"},
          "actual": {"error": "inplace_shape"}, "reason": "r", "reference": "r"})");
  const Judgement j = judge("inplace_agree", c, outcomes, {declare(kXtensorResizes), fourth_refuses});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  ASSERT_FALSE(j.differences.empty());
  EXPECT_EQ(j.differences[0].undeclared, Names{"torch"});
}

// The same for numbers: an engine whose values are xtensor's declared ones, far from two libraries that agree.
TEST(DeclaredDepartures, AnEngineWhoseValuesAreADeclaredDepartureIsTheOddOneOut) {
  Registered fourth{"fourth"};
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[2]], "values": {"seed": 1}})");
  Outcome rule = Outcome::success({2}), departure = rule;
  rule.values = std::vector<double>{0, 1};
  departure.values = std::vector<double>{0, 5};
  const Declaration xtensor_values =
      declare(R"({"id": "xtensor-v", "oracle": "xtensor", "on": "values", "ops": ["add"], "reason": "r", "reference": "f"})");
  Outcomes outcomes = three(departure, rule, departure);
  outcomes.emplace_back("fourth", rule);
  const Judgement j = judge("values_agree", c, outcomes, {xtensor_values});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "values");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  ASSERT_FALSE(j.differences.empty());
  EXPECT_EQ(j.differences[0].undeclared, Names{"engine"});

  // Without the declaration nobody stands aside: the tie names everyone who differs from the engine.
  const Judgement tie = judge("values_agree", c, outcomes, {});
  ASSERT_FALSE(tie.differences.empty());
  EXPECT_EQ(tie.differences[0].undeclared, (Names{"torch", "fourth"}));
}

}  // namespace
}  // namespace bc
