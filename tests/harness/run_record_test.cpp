// Run records: the results.jsonl line of one case, findings, declaration use, and summary.json, each read
// back to the same JSON.
#include "harness/run_record.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bc {
namespace {

using nlohmann::json;

Declaration xtensor_inplace() {
  return declaration_from_json(json::parse(
      R"({"id": "xtensor-inplace-resizes", "oracle": "xtensor", "ops": ["add_", "sub_", "mul_", "div_"],
          "expected": {"error": "inplace_shape"}, "actual": {"status": "ok"}, "reason": "resizes", "reference": "r"})"));
}

CaseRecord inplace_record(Verdict verdict) {
  CaseRecord r;
  r.property = "inplace_agree";
  r.c = case_from_json(json::parse(R"({"op": "add_", "shapes": [[1],[3]], "tags": ["near_miss"], "seed_note": 7})"));
  const Outcome refused = Outcome::failure(ErrorKind::inplace_shape, "output with shape [1] doesn't match the broadcast shape [3]");
  r.outcomes = {{"engine", refused}, {"torch", refused}, {"xtensor", Outcome::success({3})}};
  std::vector<Declaration> decls;
  if (verdict == Verdict::known) decls.push_back(xtensor_inplace());
  r.judgement = judge(r.property, r.c, r.outcomes, decls);
  return r;
}

TEST(CaseRecordJson, HasTheDocumentedKeys) {
  const json j = to_json(inplace_record(Verdict::known));
  EXPECT_EQ(j.at("property"), "inplace_agree");
  EXPECT_EQ(j.at("case").at("op"), "add_");
  EXPECT_EQ(j.at("case").at("seed_note"), 7);
  EXPECT_EQ(j.at("outcomes").at("xtensor"), json::parse(R"({"status": "ok", "shape": [3], "dtype": "float32"})"));
  EXPECT_EQ(j.at("verdict"), "known");
  EXPECT_EQ(j.at("difference"), "status");
  EXPECT_EQ(j.at("odd_ones"), json::array({"xtensor"}));
  EXPECT_EQ(j.at("attribution"), "xtensor is the odd one out");
  EXPECT_EQ(j.at("known"), "xtensor-inplace-resizes");
  EXPECT_EQ(j.at("signature"),
            "inplace_agree | inplace | status | odd: xtensor | engine=error:inplace_shape torch=error:inplace_shape "
            "xtensor=ok");
}

TEST(CaseRecordJson, AgreementLeavesOutTheVerdictDetails) {
  CaseRecord r;
  r.property = "corpus";
  r.c = case_from_json(json::parse(R"({"op": "add", "shapes": [[2,1],[3]]})"));
  r.outcomes = {{"engine", Outcome::success({2, 3})}, {"torch", Outcome::success({2, 3})}};
  r.judgement = judge(r.property, r.c, r.outcomes, {});
  const json j = to_json(r);
  EXPECT_EQ(j.at("verdict"), "agree");
  for (const char* key : {"difference", "odd_ones", "attribution", "known", "signature"})
    EXPECT_FALSE(j.contains(key)) << key;
}

TEST(CaseRecordJson, RoundTrips) {
  for (Verdict v : {Verdict::discrepancy, Verdict::known}) {
    const CaseRecord r = inplace_record(v);
    ASSERT_EQ(r.judgement.verdict, v);
    const CaseRecord back = case_record_from_json(to_json(r));
    EXPECT_EQ(back.property, r.property);
    EXPECT_EQ(canonical_form(back.c), canonical_form(r.c));
    EXPECT_EQ(back.c.tags, r.c.tags);
    EXPECT_EQ(back.outcomes, r.outcomes);
    EXPECT_EQ(back.judgement.verdict, r.judgement.verdict);
    EXPECT_EQ(back.judgement.difference, r.judgement.difference);
    EXPECT_EQ(back.judgement.odd_ones, r.judgement.odd_ones);
    EXPECT_EQ(back.judgement.attribution, r.judgement.attribution);
    EXPECT_EQ(back.judgement.known_id, r.judgement.known_id);
    EXPECT_EQ(back.judgement.signature, r.judgement.signature);
    EXPECT_EQ(to_json(back), to_json(r));
  }
}

TEST(CaseRecordJson, OutcomesComeBackInTheFixedOrder) {
  CaseRecord r;
  r.property = "corpus";
  r.c = case_from_json(json::parse(R"({"op": "add", "shapes": [[2],[2]]})"));
  r.outcomes = {{"xtensor", Outcome::success({2})}, {"engine", Outcome::success({2})}, {"torch", Outcome::success({2})}};
  const CaseRecord back = case_record_from_json(to_json(r));
  ASSERT_EQ(back.outcomes.size(), 3u);
  EXPECT_EQ(back.outcomes[0].first, "engine");
  EXPECT_EQ(back.outcomes[1].first, "torch");
  EXPECT_EQ(back.outcomes[2].first, "xtensor");
}

Finding make_finding() {
  Finding f;
  f.minimal = inplace_record(Verdict::known);
  f.signature = f.minimal.judgement.signature;
  f.property = f.minimal.property;
  f.family = "inplace";
  f.verdict = f.minimal.judgement.verdict;
  f.known_id = f.minimal.judgement.known_id;
  f.original = case_from_json(json::parse(R"({"op": "add_", "shapes": [[4,1,2],[5,4,3,2]]})"));
  f.hits = 17;
  f.shrink_steps = 4;
  f.shrunk = true;
  return f;
}

TEST(CaseRecordJson, EquivalenceOutcomesKeepTheirUnfusedTwins) {
  CaseRecord r;
  r.property = "addc_equivalence";
  r.c = case_from_json(json::parse(R"({"op": "addcmul", "shapes": [[2], [2], [2]]})"));
  r.outcomes = {{"engine", Outcome::success({2})}, {"engine unfused", Outcome::failure(ErrorKind::invalid_argument, "x")},
                {"torch", Outcome::success({2})}, {"torch unfused", Outcome::success({2})}};
  const CaseRecord back = case_record_from_json(to_json(r));
  EXPECT_EQ(back.outcomes, r.outcomes);
}

TEST(FindingJson, RoundTrips) {
  const Finding f = make_finding();
  const Finding back = finding_from_json(to_json(f));
  EXPECT_EQ(back.signature, f.signature);
  EXPECT_EQ(back.family, "inplace");
  EXPECT_EQ(back.verdict, Verdict::known);
  EXPECT_EQ(back.known_id, "xtensor-inplace-resizes");
  EXPECT_EQ(back.original.shapes, f.original.shapes);
  EXPECT_EQ(back.hits, 17);
  EXPECT_EQ(back.shrink_steps, 4);
  EXPECT_TRUE(back.shrunk);
  EXPECT_EQ(to_json(back), to_json(f));
}

// A summary written before findings said whether they were shrunk: every generated finding was (with or without
// steps), a corpus case never.
TEST(FindingJson, AFindingWithoutTheShrunkFieldIsShrunkUnlessItIsACorpusCase) {
  json j = to_json(make_finding());
  j.erase("shrunk");
  j["shrink_steps"] = 0;
  EXPECT_TRUE(finding_from_json(j).shrunk);
  j["property"] = "corpus";
  EXPECT_FALSE(finding_from_json(j).shrunk);
  j["shrunk"] = true;
  EXPECT_TRUE(finding_from_json(j).shrunk);
}

TEST(Finding, IsNewUnlessKnown) {
  Finding f;
  f.verdict = Verdict::discrepancy;
  EXPECT_TRUE(f.is_new());
  f.verdict = Verdict::expect_failed;
  EXPECT_TRUE(f.is_new());
  f.verdict = Verdict::known;
  EXPECT_FALSE(f.is_new());
}

TEST(DeclarationUse, StaleWhenCoveredButNeverMatched) {
  DeclarationUse u{xtensor_inplace(), 0, 0};
  EXPECT_FALSE(u.stale());  // nothing in its scope ran: no evidence either way
  u.covered = 12;
  EXPECT_TRUE(u.stale());
  u.matched = 1;
  EXPECT_FALSE(u.stale());
}

RunSummary make_summary() {
  RunSummary s;
  s.command = "run";
  s.arguments = {"broadcheck", "run", "--seed", "42", "--cases", "200"};
  s.seed = 18446744073709551557ull;  // needs all 64 bits
  s.cases_requested = 200;
  s.started_at = "2026-11-22T11:00:00Z";
  s.seconds = 12.625;
  s.versions = {{"engine", "0.1.0"}, {"torch", "1.13.1"}, {"xtensor", "0.24.6"}, {"broadcheck", "0.1.0 abc1234"}};
  s.verdicts = {{"agree", 180}, {"known", 19}, {"discrepancy", 1}};
  s.cases_per_property = {{"inplace_agree", 200}, {"corpus", 40}};
  s.cases_per_op = {{"inplace_agree", {{"add_", 120}, {"mul_", 80}}}, {"corpus", {{"add", 40}}}};
  s.statuses = {{"xtensor:unsupported", 3}};
  s.coverage.add("inplace_agree", inplace_record(Verdict::known).c);
  s.coverage.required["inplace_agree"] = {"near_miss", "size-0 dim"};
  s.findings = {make_finding()};
  s.declarations = {DeclarationUse{xtensor_inplace(), 40, 19},
                    DeclarationUse{declaration_from_json(json::parse(
                                       R"({"id": "document-rank0", "oracle": "document", "case_ids": ["seed003-ex2"],
                                           "expected": {"status": "error"}, "actual": {"status": "ok"},
                                           "reason": "r", "reference": "f"})")),
                                   1, 0}};
  s.input_errors = {"corpus/seeds.jsonl:7: unknown op \"pow\"; valid ops: add, ..."};
  s.exit_code = 2;
  return s;
}

TEST(RunSummaryJson, RoundTrips) {
  const RunSummary s = make_summary();
  const json j = to_json(s);
  EXPECT_EQ(to_json(run_summary_from_json(j)), j);
  // Through text too, as summary.json is written.
  EXPECT_EQ(to_json(run_summary_from_json(json::parse(j.dump(2)))), j);
}

TEST(RunSummaryJson, FieldsComeBack) {
  const RunSummary back = run_summary_from_json(to_json(make_summary()));
  EXPECT_EQ(back.command, "run");
  EXPECT_EQ(back.seed, 18446744073709551557ull);
  EXPECT_EQ(back.seconds, 12.625);
  EXPECT_EQ(back.versions.at("torch"), "1.13.1");
  EXPECT_EQ(back.verdicts.at("known"), 19);
  EXPECT_EQ(back.cases_per_property.at("corpus"), 40);
  EXPECT_EQ(back.cases_per_op.at("inplace_agree").at("mul_"), 80);
  EXPECT_EQ(back.statuses.at("xtensor:unsupported"), 3);
  EXPECT_EQ(back.coverage.missing(), std::vector<std::string>{"inplace_agree: size-0 dim"});
  ASSERT_EQ(back.findings.size(), 1u);
  EXPECT_EQ(back.findings[0].hits, 17);
  ASSERT_EQ(back.declarations.size(), 2u);
  EXPECT_EQ(back.declarations[0].declaration.id, "xtensor-inplace-resizes");
  EXPECT_EQ(back.declarations[0].covered, 40);
  EXPECT_EQ(back.declarations[0].matched, 19);
  EXPECT_FALSE(back.declarations[0].stale());
  EXPECT_TRUE(back.declarations[1].stale());
  EXPECT_EQ(back.input_errors.size(), 1u);
  EXPECT_EQ(back.exit_code, 2);
}

TEST(RunSummaryJson, StaleIsWrittenOut) {
  const json j = to_json(make_summary());
  EXPECT_EQ(j.at("declarations").at(0).at("stale"), false);
  EXPECT_EQ(j.at("declarations").at(1).at("stale"), true);
  EXPECT_EQ(j.at("declarations").at(1).at("declaration").at("case_ids"), json::array({"seed003-ex2"}));
  EXPECT_EQ(j.at("coverage").at("missing"), json::array({"inplace_agree: size-0 dim"}));
}

}  // namespace
}  // namespace bc
