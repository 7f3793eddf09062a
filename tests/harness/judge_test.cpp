// Verdicts from hand-built outcomes: agreement, the odd one out, unsupported oracles, message checks against
// LibTorch, declarations that explain (or fail to explain) a difference, the case's own expectation, signatures.
#include "harness/judge.h"
#include "harness/signature.h"

#include "judge_test_util.h"
#include "registered.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bc {
namespace {

using nlohmann::json;

const char* kInplaceMessage = "output with shape [1] doesn't match the broadcast shape [3]";

// The line from corpus/known_divergences.jsonl, in short.
const char* kXtensorInplace =
    R"({"id": "xtensor-inplace-resizes", "oracle": "xtensor", "ops": ["add_", "sub_", "mul_", "div_"],
        "expected": {"error": "inplace_shape"}, "actual": {"status": "ok"}, "reason": "resizes", "reference": "r"})";

Outcomes inplace_xtensor_resizes() {
  return three(Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage),
               Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage), Outcome::success({3}));
}

TEST(Judge, VerdictNames) {
  EXPECT_EQ(std::string(to_string(Verdict::agree)), "agree");
  EXPECT_EQ(std::string(to_string(Verdict::discrepancy)), "discrepancy");
  EXPECT_EQ(std::string(to_string(Verdict::known)), "known");
  EXPECT_EQ(std::string(to_string(Verdict::expect_failed)), "expect_failed");
}

TEST(Judge, AllAgree) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2,3],[3]]})");
  const Judgement j =
      judge("corpus", c, three(Outcome::success({2, 3}), Outcome::success({2, 3}), Outcome::success({2, 3})), {});
  EXPECT_EQ(j.verdict, Verdict::agree);
  EXPECT_EQ(j.difference, "");
  EXPECT_TRUE(j.odd_ones.empty());
  EXPECT_EQ(j.attribution, "");
  EXPECT_EQ(j.known_id, "");
  EXPECT_EQ(j.signature, "");
}

TEST(Judge, AllAgreeOnAnErrorWithDifferentXtensorText) {
  // Only the engine's text is held against LibTorch's; xtensor's wording is its own business.
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]]})");
  const Judgement j = judge("corpus", c,
                            three(Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ..."),
                                  Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ..."),
                                  Outcome::failure(ErrorKind::broadcast, "Incompatible dimension of arrays")),
                            {});
  EXPECT_EQ(j.verdict, Verdict::agree);
}

TEST(Judge, XtensorIsTheOddOneOut) {
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  const Judgement j = judge("inplace_agree", c, inplace_xtensor_resizes(), {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "status");
  EXPECT_EQ(j.odd_ones, Names{"xtensor"});
  EXPECT_EQ(j.attribution, "xtensor is the odd one out");
  EXPECT_EQ(j.known_id, "");
  EXPECT_EQ(j.signature,
            "inplace_agree | inplace | status | odd: xtensor | engine=error:inplace_shape torch=error:inplace_shape "
            "xtensor=ok");
}

TEST(Judge, TorchIsTheOddOneOutByShape) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2,1],[3]]})");
  const Judgement j =
      judge("corpus", c, three(Outcome::success({2, 3}), Outcome::success({3, 3}), Outcome::success({2, 3})), {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "shape");
  EXPECT_EQ(j.odd_ones, Names{"torch"});
  EXPECT_EQ(j.attribution, "torch is the odd one out");
}

TEST(Judge, EngineIsTheOddOneOutByErrorKind) {
  const Case c = make_case(R"({"op": "expand", "shapes": [[3],[2,-2]]})");
  const Judgement j = judge("corpus", c,
                            three(Outcome::failure(ErrorKind::expand, "e"),
                                  Outcome::failure(ErrorKind::invalid_argument, "t"),
                                  Outcome::failure(ErrorKind::invalid_argument, "x")),
                            {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "error kind");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  EXPECT_EQ(j.attribution, "engine is the odd one out");
}

TEST(Judge, AllThreeDiffer) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2,3],[3,3]]})");
  const Judgement j = judge("corpus", c,
                            three(Outcome::success({2, 3}), Outcome::failure(ErrorKind::broadcast, "no"),
                                  Outcome::success({3, 3})),
                            {});
  // Two differences: LibTorch alone refuses (status); the two that succeed differ in shape, with no third opinion.
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "status");
  EXPECT_EQ(j.odd_ones, (Names{"torch"}));
  EXPECT_EQ(j.attribution, "torch is the odd one out");
  ASSERT_EQ(j.differences.size(), 2u);
  EXPECT_EQ(j.differences[1].component, "shape");
  EXPECT_EQ(j.differences[1].odd_ones, (Names{"engine", "xtensor"}));
  EXPECT_EQ(j.differences[1].attribution, "engine and xtensor differ (no third opinion)");
  EXPECT_EQ(j.differences[1].undeclared, (Names{"xtensor"}));
}

TEST(Judge, UnsupportedOutcomesDoNotVote) {
  const Case c = make_case(R"({"op": "sum_to", "shapes": [[2,3],[3]]})");
  const Judgement agree = judge("corpus", c,
                                three(Outcome::success({3}), Outcome::success({3}),
                                      Outcome::unsupported_because("xtensor has no sum_to")),
                                {});
  EXPECT_EQ(agree.verdict, Verdict::agree);
  EXPECT_TRUE(agree.odd_ones.empty());

  const Judgement two = judge("corpus", c,
                              three(Outcome::success({3}), Outcome::success({1, 3}),
                                    Outcome::unsupported_because("xtensor has no sum_to")),
                              {});
  EXPECT_EQ(two.verdict, Verdict::discrepancy);
  EXPECT_EQ(two.difference, "shape");
  EXPECT_EQ(two.odd_ones, (Names{"engine", "torch"}));
  EXPECT_EQ(two.attribution, "engine and torch differ (no third opinion)");
  EXPECT_EQ(two.signature, "corpus | sum_to | shape | odd: engine,torch | engine=ok torch=ok");
}

TEST(Judge, UnsupportedEngineLeavesTheLibrariesToCompare) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[2]]})");
  const Judgement j = judge("corpus", c,
                            three(Outcome::unsupported_because("n/a"), Outcome::success({2}), Outcome::success({2})),
                            {});
  EXPECT_EQ(j.verdict, Verdict::agree);
}

TEST(Judge, EngineMessageMustEqualTorchMessage) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]]})");
  const Judgement j = judge("corpus", c,
                            three(Outcome::failure(ErrorKind::broadcast, "sizes 2 and 3 clash"),
                                  Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) must match ..."),
                                  Outcome::failure(ErrorKind::broadcast, "xtensor text")),
                            {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "message");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  EXPECT_NE(j.attribution.find("engine's message"), std::string::npos) << j.attribution;
  EXPECT_EQ(j.known_id, "");
}

TEST(Judge, MessageDeclarationForTheEngineMakesItKnown) {
  const Case c = make_case(R"({"op": "sum_to", "shapes": [[2,3],[4]]})");
  const std::vector<Declaration> decls = {declare(
      R"({"id": "engine-sum-to-message", "oracle": "engine", "on": "message", "ops": ["sum_to"],
          "expected": {"error": "sum_to"}, "actual": {"error": "sum_to"}, "reason": "r", "reference": "f"})")};
  const Judgement j = judge("corpus", c,
                            three(Outcome::failure(ErrorKind::sum_to, "own words"),
                                  Outcome::failure(ErrorKind::sum_to, "shape '[4]' is invalid for input of size 6"),
                                  Outcome::unsupported_because("none")),
                            decls);
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.difference, "message");
  EXPECT_EQ(j.known_id, "engine-sum-to-message");
}

TEST(Judge, XtensorDeclarationExplainsAMatchingDiscrepancy) {
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  const Judgement j = judge("inplace_agree", c, inplace_xtensor_resizes(), {declare(kXtensorInplace)});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "xtensor-inplace-resizes");
  EXPECT_EQ(j.difference, "status");
  EXPECT_EQ(j.odd_ones, Names{"xtensor"});
  EXPECT_EQ(j.attribution, "xtensor is the odd one out");
}

TEST(Judge, DeclarationDoesNotReachOutsideItsOps) {
  const Case c = make_case(R"({"op": "sub_", "shapes": [[1],[3]]})");
  const Declaration only_add = declare(
      R"({"id": "xt-add-only", "oracle": "xtensor", "ops": ["add_"], "expected": {"error": "inplace_shape"},
          "actual": {"status": "ok"}, "reason": "r", "reference": "f"})");
  const Judgement j = judge("inplace_agree", c, inplace_xtensor_resizes(), {only_add});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.known_id, "");
  EXPECT_EQ(j.odd_ones, Names{"xtensor"});
}

TEST(Judge, DeclarationDoesNotExplainOtherPatterns) {
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  // xtensor fails instead of resizing: the declaration's "actual" is {"status": "ok"}.
  const Judgement other_actual = judge("inplace_agree", c,
                                       three(Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage),
                                             Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage),
                                             Outcome::failure(ErrorKind::broadcast, "xt")),
                                       {declare(kXtensorInplace)});
  EXPECT_EQ(other_actual.verdict, Verdict::discrepancy);
  EXPECT_EQ(other_actual.difference, "error kind");
  EXPECT_EQ(other_actual.known_id, "");

  // The rule (the engine) says broadcast, not inplace_shape: the declaration's "expected" does not match.
  const Judgement other_expected = judge("inplace_agree", c,
                                         three(Outcome::failure(ErrorKind::broadcast, "b"),
                                               Outcome::failure(ErrorKind::broadcast, "b"), Outcome::success({3})),
                                         {declare(kXtensorInplace)});
  EXPECT_EQ(other_expected.verdict, Verdict::discrepancy);
  EXPECT_EQ(other_expected.known_id, "");
}

TEST(Judge, DeclarationForAnotherOracleDoesNotExplain) {
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  const Declaration for_torch = declare(
      R"({"id": "torch-inplace", "oracle": "torch", "ops": ["add_"], "expected": {"error": "inplace_shape"},
          "actual": {"status": "ok"}, "reason": "r", "reference": "f"})");
  const Judgement j = judge("inplace_agree", c, inplace_xtensor_resizes(), {for_torch});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.known_id, "");
}

TEST(Judge, EngineAloneStaysADiscrepancyDespiteDeclarationsWithOtherPatterns) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2,3],[3]]})");
  const std::vector<Declaration> decls = {
      declare(R"({"id": "torch-x", "oracle": "torch", "expected": {"error": "sum_to"}, "actual": {"status": "ok"},
                  "reason": "r", "reference": "f"})"),
      declare(R"({"id": "xtensor-x", "oracle": "xtensor", "expected": {"error": "expand"}, "actual": {"status": "ok"},
                  "reason": "r", "reference": "f"})"),
  };
  const Judgement j = judge("elementwise_agree", c,
                            three(Outcome::failure(ErrorKind::broadcast, "wrong"), Outcome::success({2, 3}),
                                  Outcome::success({2, 3})),
                            decls);
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "status");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  EXPECT_EQ(j.attribution, "engine is the odd one out");
  EXPECT_EQ(j.known_id, "");
}

TEST(Judge, OnlyAnEngineDeclarationExplainsAnEngineStandingAlone) {
  const Case c = make_case(R"({"op": "sum_to", "shapes": [[1,1,0,1],[0,2]]})");
  const std::vector<Declaration> decls = {
      declare(R"({"id": "engine-refuses", "oracle": "engine", "ops": ["sum_to"], "expected": {"status": "ok"},
                  "actual": {"error": "sum_to"}, "reason": "r", "reference": "f"})"),
  };
  const Outcomes outcomes = three(Outcome::failure(ErrorKind::sum_to, "no"), Outcome::success({0, 2}),
                                  Outcome::success({0, 2}));
  const Judgement j = judge("sum_to_agree", c, outcomes, decls);
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "engine-refuses");
  Case other = c;
  other.op = Op::expand;
  EXPECT_EQ(judge("expand_agree", other, outcomes, decls).verdict, Verdict::discrepancy);
}

TEST(Judge, AnyErrorExpectedButTorchSucceeds) {
  const Case c = make_case(R"({"id": "seed003-ex2", "op": "add", "shapes": [[],[2,2]], "expect": {"error": true}})");
  const Outcomes all_ok = three(Outcome::success({2, 2}), Outcome::success({2, 2}), Outcome::success({2, 2}));
  const Judgement j = judge("corpus", c, all_ok, {});
  EXPECT_EQ(j.verdict, Verdict::expect_failed);
  EXPECT_EQ(j.difference, "expectation");
  EXPECT_EQ(j.odd_ones, Names{"document"});
  EXPECT_EQ(j.known_id, "");
  EXPECT_EQ(j.signature, "corpus | elementwise | expectation | odd: document | engine=ok torch=ok xtensor=ok");
}

TEST(Judge, DocumentDeclarationWithTheCaseIdMakesItKnown) {
  const Case c = make_case(R"({"id": "seed003-ex2", "op": "add", "shapes": [[],[2,2]], "expect": {"error": true}})");
  const Outcomes all_ok = three(Outcome::success({2, 2}), Outcome::success({2, 2}), Outcome::success({2, 2}));
  const Declaration doc = declare(
      R"({"id": "document-rank0-broadcasts", "oracle": "document", "case_ids": ["seed003-ex2"],
          "expected": {"status": "error"}, "actual": {"status": "ok"}, "reason": "r", "reference": "f"})");
  const Judgement j = judge("corpus", c, all_ok, {doc});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "document-rank0-broadcasts");
  EXPECT_EQ(j.odd_ones, Names{"document"});

  const Case other = make_case(R"({"id": "seed009-ex1", "op": "add", "shapes": [[],[2,2]], "expect": {"error": true}})");
  const Judgement not_covered = judge("corpus", other, all_ok, {doc});
  EXPECT_EQ(not_covered.verdict, Verdict::expect_failed);
  EXPECT_EQ(not_covered.known_id, "");
}

TEST(Judge, ExpectationThatHoldsAgrees) {
  const Case shape = make_case(R"({"op": "add", "shapes": [[6,1,5],[3,5]], "expect": {"shape": [6,3,5]}})");
  EXPECT_EQ(judge("corpus", shape,
                  three(Outcome::success({6, 3, 5}), Outcome::success({6, 3, 5}), Outcome::success({6, 3, 5})), {})
                .verdict,
            Verdict::agree);
  const Case kind = make_case(R"({"op": "add", "shapes": [[2],[3]], "expect": {"error": "broadcast"}})");
  const Outcome b = Outcome::failure(ErrorKind::broadcast, "t");
  EXPECT_EQ(judge("corpus", kind, three(b, b, b), {}).verdict, Verdict::agree);
}

TEST(Judge, WrongExpectedShapeFailsTheDocument) {
  const Case c = make_case(R"({"op": "add", "shapes": [[6,1,5],[3,5]], "expect": {"shape": [6,5]}})");
  const Judgement j = judge(
      "corpus", c, three(Outcome::success({6, 3, 5}), Outcome::success({6, 3, 5}), Outcome::success({6, 3, 5})), {});
  EXPECT_EQ(j.verdict, Verdict::expect_failed);
  EXPECT_EQ(j.difference, "expectation");
  EXPECT_EQ(j.odd_ones, Names{"document"});
}

TEST(Judge, ExpectedMessageDiffersFromTorchs) {
  const Case c = make_case(
      R"json({"id": "seed001-inplace-2", "op": "add_", "shapes": [[1,3,1],[3,3,7]],
          "expect": {"error": "inplace_shape", "message": "The expanded size of the tensor (1) must match the existing size (7)"}})json");
  const Outcome now = Outcome::failure(ErrorKind::inplace_shape,
                                       "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]");
  const Outcomes outcomes = three(now, now, now);

  const Judgement j = judge("corpus", c, outcomes, {});
  EXPECT_EQ(j.verdict, Verdict::expect_failed);
  EXPECT_EQ(j.difference, "expected message");
  EXPECT_EQ(j.odd_ones, Names{"document"});
  EXPECT_EQ(j.attribution, "LibTorch's message is not the one the case expects");
  EXPECT_EQ(j.known_id, "");

  const Declaration on_message = declare(
      R"({"id": "document-old-inplace-message", "oracle": "document", "on": "message",
          "case_ids": ["seed001-inplace-2", "seed003-inplace-2"], "expected": {"error": "inplace_shape"},
          "actual": {"error": "inplace_shape"}, "reason": "r", "reference": "f"})");
  const Judgement known = judge("corpus", c, outcomes, {on_message});
  EXPECT_EQ(known.verdict, Verdict::known);
  EXPECT_EQ(known.difference, "expected message");
  EXPECT_EQ(known.known_id, "document-old-inplace-message");

  // The same declaration "on" the outcome does not cover a message-only failure.
  const Declaration on_outcome = declare(
      R"({"id": "doc-outcome", "oracle": "document", "case_ids": ["seed001-inplace-2"],
          "expected": {"error": "inplace_shape"}, "actual": {"error": "inplace_shape"}, "reason": "r", "reference": "f"})");
  const Judgement still = judge("corpus", c, outcomes, {on_outcome});
  EXPECT_EQ(still.verdict, Verdict::expect_failed);
  EXPECT_EQ(still.difference, "expected message");
}

TEST(Judge, AnExplainedDifferenceDoesNotHideAnUnexplainedOne) {
  // xtensor's resize is declared, but the case also expects a shape LibTorch does not give.
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]], "expect": {"shape": [3]}})");
  const Judgement j = judge("corpus", c, inplace_xtensor_resizes(), {declare(kXtensorInplace)});
  EXPECT_EQ(j.verdict, Verdict::expect_failed);
  EXPECT_EQ(j.difference, "expectation");
  EXPECT_EQ(j.odd_ones, Names{"document"});
}

TEST(Judge, ExpectationIsHeldAgainstTorchNotTheEngine) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]], "expect": {"error": "broadcast", "message": "T"}})");
  const Judgement j = judge("corpus", c,
                            three(Outcome::failure(ErrorKind::broadcast, "E"), Outcome::failure(ErrorKind::broadcast, "T"),
                                  Outcome::failure(ErrorKind::broadcast, "X")),
                            {});
  // The engine's text differs from LibTorch's; the document's is LibTorch's, so only the message step fires.
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "message");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
}

TEST(Judge, ADeclaredLibTorchDepartureExplainsAFailedDocumentExpectation) {
  // The document's rule (an in-place op keeps self's shape) is the engine's; LibTorch departs and says so in a
  // declaration: the case is known, not a failed expectation, and LibTorch is the odd one.
  const Case c = make_case(R"({"op": "addbmm_", "shapes": [[4], [5, 2, 3], [5, 3, 4]], "expect": {"error": "inplace_shape"}})");
  const Outcomes o = {{"engine", Outcome::failure(ErrorKind::inplace_shape, "E")}, {"torch", Outcome::success({2, 4})}};
  const Declaration resizes = declare(R"({"id": "resizes", "oracle": "torch", "ops": ["addbmm_"],
      "expected": {"error": "inplace_shape"}, "reason": "r", "reference": "x"})");
  const Judgement j = judge("corpus", c, o, {resizes});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "resizes");
  // Without the declaration the expectation fails (and the outcomes differ).
  EXPECT_EQ(judge("corpus", c, o, {}).verdict, Verdict::discrepancy);
  // When the engine does not meet the expectation either, LibTorch's declaration does not explain it away.
  const Outcomes both_ok = {{"engine", Outcome::success({2, 4})}, {"torch", Outcome::success({2, 4})}};
  EXPECT_EQ(judge("corpus", c, both_ok, {resizes}).verdict, Verdict::expect_failed);
}

TEST(Judge, SignatureIgnoresSizesAndIds) {
  const Case small = make_case(R"({"id": "a", "op": "add", "shapes": [[2,3],[4]]})");
  const Case large = make_case(R"({"id": "b", "op": "add", "shapes": [[5,1,7],[6,8]]})");
  const Judgement j1 = judge("elementwise_agree", small,
                             three(Outcome::failure(ErrorKind::broadcast, "a (3) b (4)"),
                                   Outcome::failure(ErrorKind::broadcast, "a (3) b (4)"), Outcome::success({2, 4})),
                             {});
  const Judgement j2 = judge("elementwise_agree", large,
                             three(Outcome::failure(ErrorKind::broadcast, "a (7) b (8)"),
                                   Outcome::failure(ErrorKind::broadcast, "a (7) b (8)"), Outcome::success({5, 6, 8})),
                             {});
  EXPECT_EQ(j1.verdict, Verdict::discrepancy);
  EXPECT_FALSE(j1.signature.empty());
  EXPECT_EQ(j1.signature, j2.signature);
}

TEST(Judge, SignatureNamesTheOddOracle) {
  const Case c = make_case(R"({"op": "add", "shapes": [[2,3],[4]]})");
  const Outcome err = Outcome::failure(ErrorKind::broadcast, "m");
  const Outcome ok = Outcome::success({2, 4});
  const Judgement odd_xtensor = judge("elementwise_agree", c, three(err, err, ok), {});
  const Judgement odd_torch = judge("elementwise_agree", c, three(err, ok, err), {});
  EXPECT_EQ(odd_xtensor.odd_ones, Names{"xtensor"});
  EXPECT_EQ(odd_torch.odd_ones, Names{"torch"});
  EXPECT_NE(odd_xtensor.signature, odd_torch.signature);
  // And the property is part of it.
  EXPECT_NE(judge("corpus", c, three(err, err, ok), {}).signature, odd_xtensor.signature);
}

TEST(Judge, ExpectedOutcomeOfEachForm) {
  Expectation shape;
  shape.shape = Shape{2, 3};
  EXPECT_EQ(expected_outcome(shape), Outcome::success({2, 3}));
  Expectation kind;
  kind.error = ErrorKind::expand;
  kind.message = "m";
  EXPECT_EQ(expected_outcome(kind), Outcome::failure(ErrorKind::expand, "m"));
  Expectation any;
  any.any_error = true;
  const Outcome o = expected_outcome(any);
  EXPECT_EQ(o.status, Status::error);
  EXPECT_FALSE(o.error.has_value());
}

}  // namespace
}  // namespace bc

namespace bc {
namespace {

Outcome with_grads(std::vector<std::optional<Grad>> grads) {
  Outcome o = Outcome::success({3});
  o.values = {2, 3, 4};
  o.grads = std::move(grads);
  return o;
}
const char* kGradCase =
    R"({"op": "add", "shapes": [[3], [1]], "requires_grad": [true, true], "values": {"seed": 1}})";

}  // namespace

TEST(JudgeGrads, AgreeingGradientsAgree) {
  const Outcome o = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {3}}});
  EXPECT_EQ(judge("p", make_case(kGradCase), three(o, o, o), {}).verdict, Verdict::agree);
}

TEST(JudgeGrads, AGradientOfTheBroadcastShapeIsCaughtEvenWhenAllAgree) {
  // Unreduced: B's gradient keeps the broadcast shape [3] instead of B's [1].
  const Outcome o = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{3}, "float32", {1, 1, 1}}});
  const Judgement j = judge("p", make_case(kGradCase), three(o, o, o), {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "grad shape");
}

TEST(JudgeGrads, ValuesOddOneOutAndMissingGradient) {
  const Outcome good = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {3}}});
  const Outcome off = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {2}}});
  Judgement j = judge("p", make_case(kGradCase), three(off, good, good), {});
  EXPECT_EQ(j.difference, "grad values");
  EXPECT_EQ(j.odd_ones, Names{"engine"});
  const Outcome none = with_grads({Grad{{3}, "float32", {1, 1, 1}}, std::nullopt});
  j = judge("p", make_case(kGradCase), three(good, none, good), {});
  EXPECT_EQ(j.difference, "grads");
  EXPECT_EQ(j.odd_ones, Names{"torch"});
  // An implementation that computes no gradients at all does not vote on them.
  Outcome forward_only = good;
  forward_only.grads.clear();
  EXPECT_EQ(judge("p", make_case(kGradCase), three(good, good, forward_only), {}).verdict, Verdict::agree);
}

TEST(JudgeGrads, ExpectedGradientsAreHeldAgainstTorch) {
  const Case c = make_case(R"({"op": "add", "shapes": [[3], [1]], "requires_grad": [true, true], "values": {"seed": 1},
      "expect": {"shape": [3], "grads": [{"shape": [3], "values": [1, 1, 1]}, {"shape": [1], "values": [3]}]}})");
  const Outcome good = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {3}}});
  EXPECT_EQ(judge("p", c, three(good, good, good), {}).verdict, Verdict::agree);
  const Outcome wrong = with_grads({Grad{{3}, "float32", {1, 1, 1}}, Grad{{1}, "float32", {4}}});
  EXPECT_EQ(judge("p", c, three(wrong, wrong, wrong), {}).verdict, Verdict::expect_failed);
}

}  // namespace bc

namespace bc {

TEST(JudgeGrads, AGradsDeclarationExplainsALibraryStandingAloneOnlyForItsDtypes) {
  const Declaration d = declare(
      R"({"id": "d", "oracle": "xtensor", "on": "grads", "ops": ["add"], "dtypes": ["int64"], "expected": {"status": "ok"},
          "actual": {"status": "ok"}, "reason": "r", "reference": "x"})");
  Outcome good = Outcome::success({3});
  good.grads = {std::nullopt, Grad{{1}, "float32", {3}}};
  Outcome off = good;
  off.grads[1]->values = {5};
  const Case with_int = make_case(
      R"({"op": "add", "shapes": [[3], [1]], "dtypes": ["int64", "float32"], "requires_grad": [false, true], "values": {"seed": 1}})");
  Judgement j = judge("p", with_int, three(good, good, off), {d});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "d");
  const Case all_float = make_case(R"({"op": "add", "shapes": [[3], [1]], "requires_grad": [false, true], "values": {"seed": 1}})");
  EXPECT_EQ(judge("p", all_float, three(good, good, off), {d}).verdict, Verdict::discrepancy);
}

}  // namespace bc

namespace bc {
namespace {

// Two more voters without libraries behind them, for the judge's majority over any number of implementations.
struct TwoMore {
  Registered fourth{"fourth"}, fifth{"fifth"};
};

Outcome with_values(std::vector<double> v) {
  Outcome o = Outcome::success({static_cast<int64_t>(v.size())});
  o.values = std::move(v);
  return o;
}

TEST(JudgeMajority, FourVotersThreeAgainstOneNameTheOne) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]]})");
  const Outcome refused = Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ...");
  const Judgement j = judge("p", c, {{"engine", refused}, {"torch", refused}, {"xtensor", refused},
                                     {"fourth", Outcome::success({3})}}, {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.odd_ones, Names{"fourth"});
  EXPECT_EQ(j.attribution, "fourth is the odd one out");
  EXPECT_NE(j.signature.find("fourth=ok"), std::string::npos) << j.signature;
}

// A voter that joins the run and sides with the majority adds its outcome class to the signature, but not to the
// signature without outcomes (the JUnit test's name: reports/junit_writer.cpp).
TEST(JudgeMajority, AJoiningVoterKeepsTheSignatureWithoutOutcomes) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]]})");
  const Outcome refused = Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ...");
  const Judgement three = judge("p", c, {{"engine", refused}, {"torch", refused}, {"xtensor", Outcome::success({3})}}, {});
  const Judgement four = judge("p", c, {{"engine", refused}, {"torch", refused}, {"xtensor", Outcome::success({3})},
                                        {"fourth", refused}}, {});
  EXPECT_NE(three.signature, four.signature);
  EXPECT_EQ(signature_without_outcomes(four.signature), signature_without_outcomes(three.signature));
  EXPECT_EQ(signature_without_outcomes(three.signature), "p | elementwise | status | odd: xtensor");
  // Signatures that end in anything else come back whole.
  for (const std::string other : {"p | elementwise | nondeterministic | odd: torch | add", "p | x | a=b | c", "a=b"})
    EXPECT_EQ(signature_without_outcomes(other), other);
}

TEST(JudgeMajority, FiveVotersThreeAgainstTwoNameBothMinorities) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]]})");
  const Outcome refused = Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ...");
  const Judgement j = judge("p", c, {{"engine", refused}, {"torch", refused}, {"xtensor", Outcome::success({3})},
                                     {"fourth", refused}, {"fifth", Outcome::success({2})}}, {});
  EXPECT_EQ(j.odd_ones, (Names{"xtensor", "fifth"}));
  EXPECT_EQ(j.attribution, "xtensor and fifth are the odd ones out");
}

TEST(JudgeMajority, TwoAgainstTwoIsNoMajority) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[3]]})");
  const Outcome refused = Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ...");
  const Judgement j = judge("p", c, {{"engine", refused}, {"torch", refused}, {"xtensor", Outcome::success({3})},
                                     {"fourth", Outcome::success({3})}}, {});
  EXPECT_EQ(j.odd_ones, (Names{"engine", "torch", "xtensor", "fourth"}));
  EXPECT_EQ(j.attribution, "no majority among 4 implementations");
}

TEST(JudgeMajority, ValuesFarFromAMajorityOfFourAreOdd) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[2]], "values": {"seed": 1}})");
  const Judgement j = judge("p", c, {{"engine", with_values({1, 2})}, {"torch", with_values({1, 2})},
                                     {"xtensor", with_values({1, 2})}, {"fourth", with_values({1, 5})}}, {});
  EXPECT_EQ(j.difference, "values");
  EXPECT_EQ(j.odd_ones, Names{"fourth"});
  EXPECT_EQ(j.attribution.rfind("fourth is the odd one out (", 0), 0u) << j.attribution;
}

TEST(JudgeMajority, ValuesTwoAgainstTwoHaveNoOddOne) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add", "shapes": [[2],[2]], "values": {"seed": 1}})");
  const Judgement j = judge("p", c, {{"engine", with_values({1, 2})}, {"torch", with_values({1, 2})},
                                     {"xtensor", with_values({1, 5})}, {"fourth", with_values({1, 5})}}, {});
  EXPECT_EQ(j.odd_ones, (Names{"engine", "torch", "xtensor", "fourth"}));
  EXPECT_EQ(j.attribution.rfind("the values differ (", 0), 0u) << j.attribution;
}

// A declaration for a fourth implementation explains its departure from the rule, as for the built-in libraries.
TEST(JudgeMajority, AFourthImplementationsDeclarationExplainsIt) {
  TwoMore voters;
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  Outcomes o = inplace_xtensor_resizes();
  o[2].second = o[0].second;
  o.emplace_back("fourth", Outcome::success({3}));
  const Declaration d = declare(R"({"id": "fourth-resizes", "oracle": "fourth", "ops": ["add_"],
      "expected": {"error": "inplace_shape"}, "actual": {"status": "ok"}, "reason": "r", "reference": "r"})");
  const Judgement j = judge("p", c, o, {d});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "fourth-resizes");
  EXPECT_EQ(j.odd_ones, Names{"fourth"});
}

}  // namespace
}  // namespace bc

namespace bc {

// A variant (another path through xtensor) does not vote: it is held against xtensor alone.
TEST(JudgeVariants, AVariantThatDiffersFromItsBaseIsItsOwnFinding) {
  const Registered variant("xtensor-noalias", Role::variant, "xtensor");
  const Case c = make_case(R"({"op": "add_", "shapes": [[1],[3]]})");
  Outcomes outcomes = inplace_xtensor_resizes();  // xtensor resizes; engine and LibTorch refuse
  outcomes.emplace_back("xtensor-noalias", Outcome::failure(ErrorKind::inplace_shape, "noalias"));
  const Judgement j = judge("inplace_agree", c, outcomes, {declare(kXtensorInplace)});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  ASSERT_EQ(j.differences.size(), 2u);  // xtensor's declared status, and the variant's own
  const Difference& own = j.differences[1];
  EXPECT_EQ(own.component, "status");
  EXPECT_EQ(own.odd_ones, Names{"xtensor-noalias"});
  EXPECT_EQ(own.undeclared, Names{"xtensor-noalias"});
  EXPECT_NE(own.attribution.find("differs from xtensor"), std::string::npos) << own.attribution;
  // The variant agreeing with the engine and LibTorch does not outvote xtensor's declared departure either.
  EXPECT_EQ(j.differences[0].known_ids, Names{"xtensor-inplace-resizes"});
}

TEST(JudgeVariants, AVariantAgreeingWithItsBaseAddsNothingAndDoesNotVote) {
  const Registered variant("xtensor-rank", Role::variant, "xtensor");
  const Case c = make_case(R"({"op": "add", "shapes": [[2,1],[3]]})");
  // The engine stands alone against LibTorch and xtensor: two voters agree, the variant's third "voice" is not one.
  Outcomes outcomes = three(Outcome::success({2, 3}), Outcome::success({3, 3}), Outcome::success({3, 3}));
  outcomes.emplace_back("xtensor-rank", Outcome::success({3, 3}));
  const Judgement j = judge("corpus", c, outcomes, {});
  ASSERT_EQ(j.differences.size(), 1u);
  EXPECT_EQ(j.differences[0].component, "shape");
  EXPECT_EQ(j.signature.find("xtensor-rank"), std::string::npos) << j.signature;
}

TEST(JudgeVariants, ADeclarationForTheVariantExplainsItsValues) {
  const Registered variant("xtensor-lazy", Role::variant, "xtensor");
  const Case c = make_case(R"({"op": "add", "shapes": [[3],[3]], "values": {"seed": 1}})");
  Outcome good = Outcome::success({3});
  good.values = {2, 3, 4};
  Outcome off = good;
  off.values = {2, 3, 5};
  Outcomes outcomes = three(good, good, good);
  outcomes.emplace_back("xtensor-lazy", off);
  Judgement j = judge("values_agree", c, outcomes, {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "values");
  EXPECT_EQ(j.odd_ones, Names{"xtensor-lazy"});
  const Declaration d = declare(R"({"id": "lazy", "oracle": "xtensor-lazy", "on": "values", "ops": ["add"],
      "expected": {"status": "ok"}, "actual": {"status": "ok"}, "reason": "r", "reference": "x"})");
  j = judge("values_agree", c, outcomes, {d});
  EXPECT_EQ(j.verdict, Verdict::known);
  EXPECT_EQ(j.known_id, "lazy");
  // A declaration for xtensor itself does not speak for its variant.
  const Declaration for_base = declare(R"({"id": "base", "oracle": "xtensor", "on": "values", "ops": ["add"],
      "expected": {"status": "ok"}, "actual": {"status": "ok"}, "reason": "r", "reference": "x"})");
  EXPECT_EQ(judge("values_agree", c, outcomes, {for_base}).verdict, Verdict::discrepancy);
}

TEST(JudgeVariants, AnUnsupportedVariantOrBaseComparesNothing) {
  const Registered variant("xtensor-fixed", Role::variant, "xtensor");
  const Case c = make_case(R"({"op": "add", "shapes": [[3],[3]]})");
  Outcomes outcomes = three(Outcome::success({3}), Outcome::success({3}), Outcome::unsupported_because("no"));
  outcomes.emplace_back("xtensor-fixed", Outcome::success({4}));
  EXPECT_EQ(judge("corpus", c, outcomes, {}).verdict, Verdict::agree);
  outcomes[2].second = Outcome::success({3});
  outcomes[3].second = Outcome::unsupported_because("shape not compiled in");
  EXPECT_EQ(judge("corpus", c, outcomes, {}).verdict, Verdict::agree);
}

}  // namespace bc

namespace bc {

TEST(JudgeWarnings, ALibraryThatDoesNotWarnDiffersAndTheEnginesTextIsHeldToLibTorchs) {
  const Case c = make_case(R"({"op": "add", "shapes": [[3],[3]], "out": {"shape": [2]}})");
  Outcome warned = Outcome::success({3});
  warned.warnings = {"An output with one or more elements was resized since it had shape [2]"};
  const Outcome silent = Outcome::success({3});
  Judgement j = judge("values_agree", c, three(warned, warned, silent), {});
  EXPECT_EQ(j.verdict, Verdict::discrepancy);
  EXPECT_EQ(j.difference, "warnings");
  EXPECT_EQ(j.odd_ones, Names{"xtensor"});
  Outcome worded = warned;
  worded.warnings = {"resized"};
  j = judge("values_agree", c, three(worded, warned, warned), {});
  ASSERT_EQ(j.differences.size(), 1u);
  EXPECT_EQ(j.differences[0].component, "warning text");
  EXPECT_EQ(j.differences[0].finding_class, FindingClass::message);
  EXPECT_EQ(judge("values_agree", c, three(warned, warned, warned), {}).verdict, Verdict::agree);
}

}  // namespace bc
