// regression_draft: which library each drafted test targets (the odd ones out, LibTorch for a document
// expectation, the engine when it departs alone), the call it makes and what it asserts, on hand-built records.
#include "reports/regression_draft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace bc {
namespace {

bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

CaseRecord record(const std::string& property, const std::string& op, std::vector<Shape> shapes, Outcomes outcomes,
                  std::vector<std::string> odd_ones, const std::string& difference) {
  CaseRecord r;
  r.property = property;
  r.c.op = op_from_name(op).value();
  r.c.shapes = std::move(shapes);
  r.outcomes = std::move(outcomes);
  r.judgement.verdict = Verdict::discrepancy;
  r.judgement.difference = difference;
  r.judgement.odd_ones = odd_ones;
  r.judgement.attribution = odd_ones.size() == 1 ? odd_ones[0] + " is the odd one out" : "";
  r.judgement.signature = property + " | " + op + " | " + difference + " | odd: " + (odd_ones.empty() ? "" : odd_ones[0]);
  return r;
}

const std::string kInplaceMessage =
    "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]";
const std::string kBroadcastMessage =
    "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0";

}  // namespace

TEST(RegressionDraft, XtensorOddOneOutOnInplaceGetsAnXtensorTest) {
  const CaseRecord r = record("inplace_agree", "add_", {{1, 3, 1}, {3, 1, 7}},
                              {{"engine", Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage)},
                               {"torch", Outcome::failure(ErrorKind::inplace_shape, kInplaceMessage)},
                               {"xtensor", Outcome::success({3, 3, 7})}},
                              {"xtensor"}, "status");
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "TEST(BroadcheckRegression")) << draft;
  EXPECT_TRUE(has(draft, "inplace_agree_add__xtensor")) << draft;
  EXPECT_TRUE(has(draft, "xt::xarray<float> t0(std::vector<std::size_t>{1, 3, 1}")) << draft;
  EXPECT_TRUE(has(draft, "xt::xarray<float> t1(std::vector<std::size_t>{3, 1, 7}")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_ANY_THROW((t0 += t1, t0));")) << draft;
  EXPECT_TRUE(has(draft, kInplaceMessage)) << draft;
  EXPECT_TRUE(has(draft, "// xtensor gives ok [3, 3, 7]")) << draft;
  EXPECT_TRUE(has(draft, r.judgement.signature)) << draft;
  EXPECT_FALSE(has(draft, "at::")) << "no LibTorch test when LibTorch agrees with the engine:\n" << draft;
  EXPECT_FALSE(has(draft, "EngineRegression")) << draft;
}

TEST(RegressionDraft, TorchOddOneOutOnSumToGetsALibTorchTest) {
  const CaseRecord r = record("sum_to_agree", "sum_to", {{2, 3}, {4, 3}},
                              {{"engine", Outcome::failure(ErrorKind::sum_to, "size {[4, 3]} is not expandable")},
                               {"torch", Outcome::success({2, 3})},
                               {"xtensor", Outcome::failure(ErrorKind::sum_to, "cannot sum")}},
                              {"torch"}, "status");
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "TEST(BroadcheckRegression, sum_to_agree_sum_to_LibTorch)")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor t0 = at::zeros({2, 3});")) << draft;
  EXPECT_FALSE(has(draft, "at::Tensor t1")) << "the target is a size list, not a tensor:\n" << draft;
  EXPECT_TRUE(has(draft, "at::Tensor r = at::sum_to(t0, at::IntArrayRef({4, 3}));")) << draft;
  EXPECT_TRUE(has(draft, "ADD_FAILURE() << \"no error")) << draft;
  EXPECT_TRUE(has(draft, "R\"__(size {[4, 3]} is not expandable)__\"")) << "the engine's message:\n" << draft;
  EXPECT_TRUE(has(draft, "// torch gives ok [2, 3]")) << draft;
  EXPECT_FALSE(has(draft, "xt::")) << "no xtensor test when xtensor agrees with the engine:\n" << draft;
}

TEST(RegressionDraft, EngineAloneGetsAnEngineTest) {
  const CaseRecord r = record("elementwise_agree", "add", {{2}, {3}},
                              {{"engine", Outcome::success({2})},
                               {"torch", Outcome::failure(ErrorKind::broadcast, kBroadcastMessage)},
                               {"xtensor", Outcome::failure(ErrorKind::broadcast, kBroadcastMessage)}},
                              {"engine"}, "status");
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "TEST(EngineRegression, elementwise_agree_add)")) << draft;
  EXPECT_TRUE(has(draft, to_json(r.c).dump())) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_EQ(bc::summarize(o), \"error broadcast\")")) << draft;
  EXPECT_TRUE(has(draft, kBroadcastMessage)) << draft;
  EXPECT_FALSE(has(draft, "TEST(BroadcheckRegression")) << "LibTorch and xtensor follow the rule:\n" << draft;
}

TEST(RegressionDraft, EngineMessageAloneGetsAnEngineTestWithTorchsMessage) {
  const std::string engine_message = "The size of tensor a (2) must match the size of tensor b (3)";
  const CaseRecord r = record("elementwise_agree", "add", {{2}, {3}},
                              {{"engine", Outcome::failure(ErrorKind::broadcast, engine_message)},
                               {"torch", Outcome::failure(ErrorKind::broadcast, kBroadcastMessage)},
                               {"xtensor", Outcome::failure(ErrorKind::broadcast, "broadcast error")}},
                              {"engine"}, "message");
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "TEST(EngineRegression, elementwise_agree_add)")) << draft;
  EXPECT_TRUE(has(draft, "R\"(" + to_json(r.c).dump() + ")\"")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_EQ(bc::summarize(o), \"error broadcast\");")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_EQ(o.error->message, R\"(" + kBroadcastMessage + ")\");")) << draft;
  EXPECT_FALSE(has(draft, "TEST(BroadcheckRegression")) << draft;
}

TEST(RegressionDraft, FailedDocumentExpectationGetsALibTorchTest) {
  CaseRecord r = record("corpus", "add", {{2, 2}, {2}},
                        {{"engine", Outcome::success({2, 2})},
                         {"torch", Outcome::success({2, 2})},
                         {"xtensor", Outcome::success({2, 2})}},
                        {"document"}, "expectation");
  r.judgement.verdict = Verdict::expect_failed;
  r.c.id = "doc-add-1";
  r.c.expect = Expectation{};
  r.c.expect->any_error = true;
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "TEST(BroadcheckRegression, corpus_add_LibTorch)")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor t0 = at::zeros({2, 2});")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor t1 = at::zeros({2});")) << draft;
  EXPECT_TRUE(has(draft, "at::Tensor r = at::add(t0, t1);")) << draft;
  EXPECT_TRUE(has(draft, "ADD_FAILURE() << \"no error")) << draft;
  EXPECT_FALSE(has(draft, "EXPECT_EQ(std::string(e.what")) << "the document gives no message:\n" << draft;
  EXPECT_TRUE(has(draft, "\"doc-add-1\"")) << draft;
  EXPECT_FALSE(has(draft, "xt::")) << draft;
  EXPECT_FALSE(has(draft, "EngineRegression")) << draft;
}

TEST(RegressionDraft, FailedDocumentShapeExpectationAssertsThatShape) {
  CaseRecord r = record("corpus", "mul", {{3, 1}, {4}},
                        {{"engine", Outcome::success({3, 4})},
                         {"torch", Outcome::success({3, 4})},
                         {"xtensor", Outcome::success({3, 4})}},
                        {"document"}, "expectation");
  r.judgement.verdict = Verdict::expect_failed;
  r.c.expect = Expectation{};
  r.c.expect->shape = Shape{4, 3};
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "at::Tensor r = at::mul(t0, t1);")) << draft;
  EXPECT_TRUE(has(draft, "ASSERT_EQ(r.sizes(), at::IntArrayRef({4, 3}));")) << draft;
  EXPECT_FALSE(has(draft, "ADD_FAILURE")) << draft;
}

TEST(RegressionDraft, ValueCaseDraftsBuildTheCasesValuesAndXtensorDeclines) {
  Outcome engine = Outcome::success({2});
  engine.values = {6, 8};
  Outcome torch = Outcome::success({2});
  torch.values = {NAN, 8};
  CaseRecord r = record("fused_agree", "addmv_", {{2}, {2, 1}, {1}},
                        {{"engine", engine}, {"torch", torch}, {"xtensor", torch}}, {}, "values");
  r.judgement.odd_ones = {"torch", "xtensor"};
  r.c.values = ValueSpec{7, true, {}};
  r.c.scalars["beta"] = Scalar{0, true};
  const std::string draft = regression_draft(r);
  EXPECT_TRUE(has(draft, "at::Tensor b0 = make({")) << draft;
  EXPECT_TRUE(has(draft, "t0.addmv_(t1, t2, 0, 1)")) << draft;
  EXPECT_TRUE(has(draft, "EXPECT_TRUE(close(r, {6.0, 8.0}, ")) << "the engine's values are the rule:\n" << draft;
  EXPECT_TRUE(has(draft, "No xtensor draft for a case with values")) << draft;
  EXPECT_FALSE(has(draft, "xt::xarray")) << draft;
}

TEST(RegressionDraft, AgreementHasNoDraft) {
  CaseRecord r = record("elementwise_agree", "add", {{2, 3}, {3}},
                        {{"engine", Outcome::success({2, 3})},
                         {"torch", Outcome::success({2, 3})},
                         {"xtensor", Outcome::success({2, 3})}},
                        {}, "");
  r.judgement = Judgement{};
  EXPECT_EQ(regression_draft(r), "");
}

}  // namespace bc
