// Declared nondeterminism on hand-built outcomes: a covered implementation's numbers are withheld and never make
// it an odd one out, the case is known with the declaration's id whatever those numbers were, and everything else
// (its outcome, the others' numbers, uncovered cases) is judged as before.
#include "harness/nondeterminism.h"

#include <gtest/gtest.h>

#include <cmath>

namespace bc {
namespace {

using nlohmann::json;

Case make_case(const char* text) { return case_from_json(json::parse(text)); }

const char* kBeta0 = R"({"op": "baddbmm", "shapes": [[1, 1, 2], [1, 1, 1], [1, 1, 2]], "scalars": {"beta": 0},
                         "values": {"seed": 3}})";

std::vector<Declaration> uninitialized() {
  return {declaration_from_json(json::parse(
      R"({"id": "torch-uninit", "oracle": "torch", "on": "nondeterministic", "ops": ["baddbmm"],
          "scalars": {"beta": 0}, "reason": "r", "reference": "f"})"))};
}

Outcome ok(std::vector<double> values) {
  Outcome o = Outcome::success({1, 1, 2});
  o.values = Values(std::move(values));
  return o;
}

Outcomes three(const Outcome& engine, const Outcome& torch, const Outcome& xtensor) {
  return {{"engine", engine}, {"torch", torch}, {"xtensor", xtensor}};
}

TEST(Nondeterminism, WithheldNumbersAreKnownWithTheDeclarationsId) {
  Outcomes outcomes = three(ok({3, 4}), ok({NAN, 4}), ok({3, 4}));
  // Without the declaration the uninitialized NaN is a discrepancy with LibTorch the odd one out.
  Outcomes plain = outcomes;
  const Judgement before = judge_with_nondeterminism("fused_agree", make_case(kBeta0), plain, {});
  EXPECT_EQ(before.verdict, Verdict::discrepancy);
  EXPECT_EQ(before.odd_ones, std::vector<std::string>{"torch"});

  const Judgement j = judge_with_nondeterminism("fused_agree", make_case(kBeta0), outcomes, uninitialized());
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "torch-uninit");
  EXPECT_EQ(j.difference, "nondeterministic");
  EXPECT_EQ(j.odd_ones, std::vector<std::string>{"torch"});
  const Outcome& torch = outcomes[1].second;
  EXPECT_TRUE(torch.withheld);
  EXPECT_TRUE(torch.values.empty());
  EXPECT_EQ(to_json(torch).at("values"), "nondeterministic");
  EXPECT_EQ(outcomes[0].second.values, Values({3, 4})) << "the others keep their numbers";
}

TEST(Nondeterminism, TheVerdictDoesNotDependOnTheWithheldNumbers) {
  Judgement first, second;
  json written[2];
  for (const double noise : {4.0, std::nan("")}) {
    Outcomes outcomes = three(ok({3, 4}), ok({noise, 1e30}), ok({3, 4}));
    const Judgement j = judge_with_nondeterminism("fused_agree", make_case(kBeta0), outcomes, uninitialized());
    (std::isnan(noise) ? second : first) = j;
    written[std::isnan(noise)] = to_json(outcomes[1].second);
  }
  EXPECT_EQ(written[0], written[1]) << "the results line shows no number of LibTorch's";
  EXPECT_EQ(first.verdict, second.verdict);
  EXPECT_EQ(first.signature, second.signature);
  EXPECT_EQ(first.known_id, second.known_id);
}

TEST(Nondeterminism, TheOthersNumbersAreStillCompared) {
  Outcomes outcomes = three(ok({3, 4}), ok({NAN, NAN}), ok({3, 5}));
  const Judgement j = judge_with_nondeterminism("fused_agree", make_case(kBeta0), outcomes, uninitialized());
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.odd_ones, std::vector<std::string>{"xtensor"}) << j.attribution;
}

TEST(Nondeterminism, TheWithheldImplementationsOutcomeStillVotes) {
  Outcome wrong_shape = Outcome::success({2});
  wrong_shape.values = Values({1, 2});
  Outcomes outcomes = three(ok({3, 4}), wrong_shape, ok({3, 4}));
  const Judgement j = judge_with_nondeterminism("fused_agree", make_case(kBeta0), outcomes, uninitialized());
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "shape");
  EXPECT_EQ(j.odd_ones, std::vector<std::string>{"torch"});
}

TEST(Nondeterminism, OnlyCoveredValueLevelCases) {
  const char* beta1 = R"({"op": "baddbmm", "shapes": [[1, 1, 2], [1, 1, 1], [1, 1, 2]], "scalars": {"beta": 1},
                          "values": {"seed": 3}})";
  Outcomes outcomes = three(ok({3, 4}), ok({NAN, 4}), ok({3, 4}));
  EXPECT_TRUE(nondeterministic_declarations(make_case(beta1), outcomes, uninitialized()).empty());
  const Judgement j = judge_with_nondeterminism("fused_agree", make_case(beta1), outcomes, uninitialized());
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_FALSE(outcomes[1].second.withheld);
  const Case shapes_only = make_case(R"({"op": "baddbmm", "shapes": [[1, 1, 2], [1, 1, 1], [1, 1, 2]],
                                         "scalars": {"beta": 0}})");
  EXPECT_TRUE(nondeterministic_declarations(shapes_only, outcomes, uninitialized()).empty());
  EXPECT_EQ(nondeterministic_declarations(make_case(kBeta0), outcomes, uninitialized()).size(), 1u);
  // A beta written as a float 0.0 is the same beta.
  const Case float_beta = make_case(R"({"op": "baddbmm", "shapes": [[1, 1, 2], [1, 1, 1], [1, 1, 2]],
                                        "scalars": {"beta": 0.0}, "values": {"seed": 3}})");
  EXPECT_EQ(nondeterministic_declarations(float_beta, outcomes, uninitialized()).size(), 1u);
}

TEST(Nondeterminism, GradientValuesAreWithheldToo) {
  Outcome torch = ok({1, 2});
  torch.grads = {Grad{{1, 1, 2}, "float32", Values({NAN, 1})}, std::nullopt};
  Outcomes outcomes{{"torch", torch}};
  withhold_values(outcomes, {"torch"});
  EXPECT_TRUE(outcomes[0].second.withheld);
  ASSERT_TRUE(outcomes[0].second.grads[0].has_value());
  EXPECT_TRUE(outcomes[0].second.grads[0]->values.empty());
  EXPECT_EQ(outcomes[0].second.grads[0]->shape, (Shape{1, 1, 2}));
  const json j = to_json(outcomes[0].second);
  EXPECT_EQ(j.at("grads")[0].at("values"), "nondeterministic");
  EXPECT_EQ(outcome_from_json(j), outcomes[0].second) << "read back as withheld";
}

}  // namespace
}  // namespace bc
