// Every difference of a case, each with its own declarations: a second difference behind a declared first one, the
// values of the implementations that share the rule's shape and dtype (a voter with another dtype neither hides nor
// invents one), values where the rule refused, every operand's gradient, and the sign of zero as information.
#include "harness/judge_numbers.h"

#include "judge_test_util.h"
#include "registered.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace bc {
namespace {

using nlohmann::json;

Outcome ok(std::vector<double> v, const char* dtype = "float32") {
  Outcome o = Outcome::success({static_cast<int64_t>(v.size())}, dtype);
  o.values = std::move(v);
  return o;
}

const char* kValueCase = R"({"op": "add", "shapes": [[2],[2]], "values": {"seed": 1}})";

// xtensor returns float64 where the rule says float32 (declared), and the engine's values are wrong: the dtype
// departure must not hide the engine standing alone on values against LibTorch and a fourth voter.
TEST(JudgeEveryDifference, ADeclaredDtypeDepartureDoesNotHideAWrongValueElsewhere) {
  Registered fourth{"fourth"};
  const Declaration dtype = declare(R"({"id": "xt-dtype", "oracle": "xtensor", "difference": "dtype",
      "expected": {"status": "ok"}, "actual": {"status": "ok"}, "reason": "r", "reference": "r"})");
  const Judgement j = judge("p", make_case(kValueCase),
                            {{"engine", ok({1, 9})}, {"torch", ok({1, 2})}, {"xtensor", ok({1, 2}, "float64")},
                             {"fourth", ok({1, 2})}},
                            {dtype});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  ASSERT_EQ(j.differences.size(), 2u);
  EXPECT_EQ(j.differences[0].component, "dtype");
  EXPECT_TRUE(j.differences[0].declared());
  EXPECT_EQ(j.differences[0].known_ids, Names{"xt-dtype"});
  EXPECT_EQ(j.differences[1].component, "values");
  EXPECT_EQ(j.differences[1].odd_ones, Names{"engine"});
  EXPECT_EQ(j.differences[1].undeclared, Names{"engine"});
  // The finding is named by the undeclared difference; the declared one still counts as used.
  EXPECT_EQ(j.difference, "values");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  EXPECT_EQ(j.known_id, "xt-dtype");
}

TEST(JudgeEveryDifference, AVoterWithAnotherDtypeInventsNoValueDifference) {
  const Declaration dtype = declare(R"({"id": "xt-dtype", "oracle": "xtensor", "difference": "dtype",
      "expected": {"status": "ok"}, "actual": {"status": "ok"}, "reason": "r", "reference": "r"})");
  const Judgement j = judge("p", make_case(kValueCase),
                            {{"engine", ok({1, 2})}, {"torch", ok({1, 2})}, {"xtensor", ok({1, 2.5}, "float64")}},
                            {dtype});
  EXPECT_EQ(j.verdict, Verdict::known);
  ASSERT_EQ(j.differences.size(), 1u);
  EXPECT_EQ(j.differences[0].component, "dtype");
}

// The rule refuses; the libraries compute, and one of them computes differently: a difference of its own, which
// only a values declaration for that library explains (its status declaration does not).
TEST(JudgeEveryDifference, ValuesDifferWhereTheRuleRefused) {
  Registered fourth{"fourth"};
  const Case c = make_case(R"({"op": "add_", "shapes": [[2],[]], "values": {"seed": 1}})");
  const Outcome refused = Outcome::failure(ErrorKind::partial_overlap, "overlap");
  const Outcomes outcomes = {{"engine", refused}, {"torch", ok({8, 3})}, {"xtensor", ok({8, -1})}, {"fourth", ok({8, -1})}};
  // The libraries agree against the rule's refusal: only an engine declaration explains the status.
  const Declaration engine = declare(R"({"id": "exact", "oracle": "engine", "actual": {"error": "partial_overlap"},
      "reason": "r", "reference": "r"})");
  const Judgement undeclared = judge("p", c, outcomes, {engine});
  EXPECT_EQ(undeclared.verdict, Verdict::discrepancy);
  ASSERT_EQ(undeclared.differences.size(), 2u);
  EXPECT_TRUE(undeclared.differences[0].declared()) << to_json(undeclared.differences[0]).dump();
  EXPECT_EQ(undeclared.differences[1].component, "values");
  EXPECT_EQ(undeclared.differences[1].undeclared, Names{"torch"});
  const Declaration order = declare(R"({"id": "order", "oracle": "torch", "on": "values", "difference": "values",
      "expected": {"error": "partial_overlap"}, "actual": {"status": "ok"}, "reason": "r", "reference": "r"})");
  const Judgement known = judge("p", c, outcomes, {engine, order});
  EXPECT_EQ(known.verdict, Verdict::known);
  EXPECT_EQ(known.known_id, "exact,order");
}

// Two that computed where the rule refused, and they differ: with no majority, the one no declaration explains is
// the reference for the other.
TEST(JudgeEveryDifference, WithNoMajorityTheUndeclaredVoterIsTheReference) {
  const Case c = make_case(R"({"op": "add_", "shapes": [[2],[]], "values": {"seed": 1}})");
  const Outcomes outcomes = {{"engine", Outcome::failure(ErrorKind::partial_overlap, "overlap")},
                             {"torch", ok({8, 3})}, {"xtensor", ok({8, -1})}};
  const Declaration engine = declare(R"({"id": "exact", "oracle": "engine", "actual": {"error": "partial_overlap"},
      "reason": "r", "reference": "r"})");
  const Declaration order = declare(R"({"id": "order", "oracle": "torch", "on": "values",
      "expected": {"error": "partial_overlap"}, "reason": "r", "reference": "r"})");
  EXPECT_EQ(judge("p", c, outcomes, {engine}).verdict, Verdict::discrepancy);
  const Judgement j = judge("p", c, outcomes, {engine, order});
  EXPECT_EQ(j.verdict, Verdict::known);
  ASSERT_EQ(j.differences.size(), 2u);
  EXPECT_EQ(j.differences[1].odd_ones, (Names{"torch", "xtensor"}));
  EXPECT_TRUE(j.differences[1].undeclared.empty());
}

// Within the outcomes that succeeded, the dtype of the rule against two libraries that agree is the rule standing
// alone only when those libraries are more than half of all the voters.
TEST(JudgeEveryDifference, TheRuleStandsAloneOnlyAgainstAMajorityOfAllVoters) {
  Registered fourth{"fourth"};
  const Case c = make_case(R"({"op": "addbmm", "shapes": [[1,1],[0,1,1],[0,1,1]], "dtypes": ["int64","int64","int64"]})");
  const Declaration xt = declare(R"({"id": "x", "oracle": "xtensor", "difference": "dtype", "reason": "r", "reference": "r"})");
  const Declaration four = declare(R"({"id": "f", "oracle": "fourth", "difference": "dtype", "reason": "r", "reference": "r"})");
  const Declaration torch = declare(R"({"id": "t", "oracle": "torch", "difference": "status", "reason": "r", "reference": "r"})");
  const Outcomes outcomes = {{"engine", Outcome::success({1, 1}, "int64")},
                             {"torch", Outcome::failure(ErrorKind::dtype_cast, "cast")},
                             {"xtensor", Outcome::success({1, 1}, "float64")},
                             {"fourth", Outcome::success({1, 1}, "float64")}};
  const Judgement j = judge("p", c, outcomes, {xt, four, torch});
  EXPECT_EQ(j.verdict, Verdict::known);
  ASSERT_EQ(j.differences.size(), 2u);
  EXPECT_EQ(j.differences[1].component, "dtype");
  EXPECT_EQ(j.differences[1].odd_ones, Names{"engine"});
  EXPECT_EQ(j.differences[1].known_ids, (Names{"x", "f"}));
  // With LibTorch agreeing with the two, the engine stands alone against three of four: their declarations no
  // longer explain it.
  Outcomes three_against_one = outcomes;
  three_against_one[1].second = Outcome::success({1, 1}, "float64");
  const Judgement alone = judge("p", c, three_against_one, {xt, four, torch});
  EXPECT_EQ(alone.verdict, Verdict::discrepancy);
  EXPECT_EQ(alone.odd_ones, Names{"engine"});
}

Outcome with_grads(std::vector<std::optional<Grad>> grads) {
  Outcome o = Outcome::success({3});
  o.values = {2, 3, 4};
  o.grads = std::move(grads);
  return o;
}

TEST(JudgeEveryDifference, EveryOperandsGradientIsCompared) {
  const Case c = make_case(R"({"op": "mul", "shapes": [[3], [1]], "requires_grad": [true, true], "values": {"seed": 1}})");
  const Outcome right = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {3}}});
  const Outcome wrong = with_grads({Grad{{3}, "float32", {1, 2, 1}}, Grad{{1}, "float32", {4}}});
  const Judgement j = judge("p", c, {{"engine", right}, {"torch", right}, {"xtensor", wrong}}, {});
  ASSERT_EQ(j.differences.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(j.differences[k].component, "grad values");
    EXPECT_EQ(j.differences[k].operand, k);
    EXPECT_EQ(j.differences[k].odd_ones, Names{"xtensor"});
    EXPECT_NE(j.differences[k].attribution.find("[gradient of operand " + std::to_string(k) + "]"), std::string::npos);
  }
}

// A failing voter no longer stops the others' gradients from being compared.
TEST(JudgeEveryDifference, GradientsAreComparedAmongThoseThatSucceeded) {
  const Case c = make_case(R"({"op": "mul", "shapes": [[3], [1]], "requires_grad": [true, true], "values": {"seed": 1}})");
  const Outcome right = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {3}}});
  const Outcome wrong = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {4}}});
  const Judgement j =
      judge("p", c, {{"engine", wrong}, {"torch", right}, {"xtensor", Outcome::failure(ErrorKind::other, "x")}}, {});
  ASSERT_EQ(j.differences.size(), 2u);
  EXPECT_EQ(j.differences[0].component, "status");
  EXPECT_EQ(j.differences[1].component, "grad values");
  EXPECT_EQ(j.differences[1].operand, 1);
}

// An implementation that gives an input a gradient where the rule gives none (tfjs's zeros through where's
// condition) departs in which inputs get one: a "grads" declaration with difference "grads" explains it, as it
// explains gradient values; without one it is that implementation's finding.
TEST(JudgeEveryDifference, WhichInputsGetAGradientIsDeclarable) {
  Registered fourth{"fourth"};
  const Case c = make_case(R"({"op": "mul", "shapes": [[1], [1]], "requires_grad": [true, true], "values": {"seed": 1}})");
  const Outcome none = with_grads({Grad{{1}, "float32", {2}}, std::nullopt});
  const Outcome zeros = with_grads({Grad{{1}, "float32", {2}}, Grad{{1}, "float32", {0}}});
  const Outcomes outcomes = {{"engine", none}, {"torch", none}, {"xtensor", none}, {"fourth", zeros}};
  const Judgement undeclared = judge("p", c, outcomes, {});
  ASSERT_EQ(undeclared.differences.size(), 1u);
  EXPECT_EQ(undeclared.differences[0].component, "grads");
  EXPECT_EQ(undeclared.differences[0].undeclared, Names{"fourth"});
  EXPECT_EQ(undeclared.verdict, Verdict::discrepancy);
  const Declaration decl = declare(R"({"id": "fourth-zeros", "oracle": "fourth", "on": "grads", "difference": "grads",
      "reason": "r", "reference": "r"})");
  const Judgement known = judge("p", c, outcomes, {decl});
  ASSERT_EQ(known.differences.size(), 1u);
  EXPECT_TRUE(known.differences[0].undeclared.empty());
  EXPECT_EQ(known.differences[0].known_ids, Names{"fourth-zeros"});
  EXPECT_EQ(known.verdict, Verdict::known);
  // A declaration of gradient values does not explain it.
  const Declaration values = declare(R"({"id": "fourth-values", "oracle": "fourth", "on": "grads", "difference": "grad values",
      "reason": "r", "reference": "r"})");
  EXPECT_EQ(judge("p", c, outcomes, {values}).verdict, Verdict::discrepancy);
}

TEST(JudgeEveryDifference, SignedZerosAreInformationUnlessStrict) {
  const Case c = make_case(kValueCase);
  const Outcomes outcomes = {{"engine", ok({0.0, 1})}, {"torch", ok({0.0, 1})}, {"xtensor", ok({-0.0, 1})}};
  Judgement j = judge("p", c, outcomes, {});
  EXPECT_EQ(j.verdict, Verdict::agree);
  ASSERT_EQ(j.differences.size(), 1u);
  EXPECT_EQ(j.differences[0].finding_class, FindingClass::zeros);
  EXPECT_EQ(j.differences[0].component, "signed zeros");
  EXPECT_EQ(j.differences[0].odd_ones, Names{"xtensor"});
  EXPECT_NE(j.differences[0].attribution.find("1 of 2 elements, first at index [0]"), std::string::npos)
      << j.differences[0].attribution;
  make_zeros_strict("p", c, outcomes, j);
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "signed zeros");
  EXPECT_NE(j.signature.find("| signed zeros | odd: xtensor |"), std::string::npos) << j.signature;
  // Equal zeros are no difference; NaN and a zero are a values difference, not a zeros one.
  EXPECT_TRUE(judge("p", c, {{"engine", ok({-0.0, 1})}, {"torch", ok({-0.0, 1})}}, {}).differences.empty());
  EXPECT_EQ(judge("p", c, {{"engine", ok({0.0, 1})}, {"torch", ok({NAN, 1})}}, {}).difference, "values");
}

TEST(JudgeEveryDifference, DifferencesRoundTripThroughJson) {
  Difference d{"grad values", FindingClass::zeros, 1, {"xtensor"}, "xtensor is the odd one out", {"a", "b"}, {"torch"},
               Verdict::expect_failed};
  EXPECT_EQ(difference_from_json(to_json(d)), d);
  Difference plain{"status", FindingClass::outcome, -1, {"torch"}, "t", {}, {"torch"}, Verdict::discrepancy};
  EXPECT_EQ(difference_from_json(to_json(plain)), plain);
}

}  // namespace
}  // namespace bc
