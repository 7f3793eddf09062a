// Sample findings and a sample summary for the report.html tests, with hostile text in a message, a note, a
// declaration and an input error (everything from data must come out escaped).
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc::testing {

inline const std::string kEvilMessage = "<script>alert(\"x\")</script> & 'q'";

inline size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

// add([2, 1, 3], [4, 3]): torch alone refuses, with a hostile message.
inline Finding new_finding() {
  Finding f;
  f.property = "broadcast_symmetric";
  f.family = "elementwise";
  f.verdict = Verdict::discrepancy;
  f.signature = "broadcast_symmetric | elementwise | status | odd: torch | engine=ok torch=error:broadcast xtensor=ok";
  f.minimal.property = f.property;
  f.minimal.c.op = Op::add;
  f.minimal.c.shapes = {{2, 1, 3}, {4, 3}};
  f.minimal.c.note = "<b>note</b>";
  f.minimal.outcomes = {{"engine", Outcome::success({2, 4, 3})},
                        {"torch", Outcome::failure(ErrorKind::broadcast, kEvilMessage)},
                        {"xtensor", Outcome::success({2, 4, 3})}};
  f.minimal.judgement.verdict = Verdict::discrepancy;
  f.minimal.judgement.difference = "status";
  f.minimal.judgement.odd_ones = {"torch"};
  f.minimal.judgement.attribution = "torch is the odd one out";
  f.minimal.judgement.signature = f.signature;
  f.original = f.minimal.c;
  f.original.shapes = {{7, 2, 1, 3}, {9, 1, 4, 3}};
  f.hits = 17;
  f.shrink_steps = 5;
  f.shrunk = true;
  f.replay_command = "broadcheck replay --case '{\"op\": \"add\", \"shapes\": [[2, 1, 3], [4, 3]]}'";
  f.reproduce = "bc1/42/broadcast_symmetric/7/0.1";
  f.reproduce_command = "broadcheck replay --reproduce bc1/42/broadcast_symmetric/7/0.1";
  f.regression_draft = "TEST(Regression, AddBroadcasts) {\n  EXPECT_NO_THROW(a + b);  // a < b && c\n}\n";
  return f;
}

// add_([1], [3]): xtensor resizes self, declared.
inline Finding known_finding() {
  Finding f;
  f.property = "inplace_rule";
  f.family = "inplace";
  f.verdict = Verdict::known;
  f.known_id = "xtensor-inplace-resize";
  f.signature = "inplace_rule | inplace | status | odd: xtensor | engine=error:inplace_shape torch=error:inplace_shape xtensor=ok";
  f.minimal.property = f.property;
  f.minimal.c.op = Op::add_;
  f.minimal.c.shapes = {{1}, {3}};
  f.minimal.outcomes = {{"engine", Outcome::failure(ErrorKind::inplace_shape, "output with shape [1] ...")},
                        {"torch", Outcome::failure(ErrorKind::inplace_shape, "output with shape [1] ...")},
                        {"xtensor", Outcome::success({3})}};
  f.minimal.judgement.verdict = Verdict::known;
  f.minimal.judgement.difference = "status";
  f.minimal.judgement.odd_ones = {"xtensor"};
  f.minimal.judgement.known_id = f.known_id;
  f.original = f.minimal.c;
  f.hits = 3;
  return f;
}

inline RunSummary sample_summary() {
  RunSummary s;
  s.command = "run";
  s.arguments = {"broadcheck", "run", "--seed", "42", "--no-known"};
  s.seed = 42;
  s.started_at = "2024-05-01T12:00:00Z";
  s.seconds = 12.5;
  s.versions = {{"torch", "1.13.1"}, {"xtensor", "0.24.3"}, {"broadcheck", "abc1234"}};
  s.verdicts = {{"agree", 990}, {"discrepancy", 17}, {"known", 3}};
  s.cases_per_property = {{"broadcast_symmetric", 500}, {"inplace_rule", 500}};
  s.cases_per_op = {{"broadcast_symmetric", {{"add", 300}, {"mul", 200}}}, {"inplace_rule", {{"add_", 500}}}};
  s.statuses = {{"torch:crash", 2}, {"xtensor:crash", 1}, {"torch:timeout", 4}, {"xtensor:unsupported", 9}};
  s.coverage.counts["broadcast_symmetric"] = {{"max rank 3", 120}, {"near miss", 40}, {"dtype int64", 7}};
  s.coverage.required["broadcast_symmetric"] = {"near miss", "size-0 dim"};
  s.findings = {known_finding(), new_finding()};  // deliberately known first: the report must reorder
  Declaration d;
  d.id = "xtensor-inplace-resize";
  d.oracle = "xtensor";
  d.ops = {"add_"};
  d.reason = "xtensor resizes <self> & does not refuse";
  d.reference = "https://example.org/issue?a=1&b=2";
  s.declarations = {{d, 500, 3}};
  Declaration old;
  old.id = "old-declaration";
  old.oracle = "torch";
  old.reason = "fixed long ago";
  old.reference = "none";
  s.declarations.push_back({old, 10, 0});
  s.input_errors = {"corpus/x.jsonl:3: unknown op \"<pow>\""};
  s.exit_code = 1;
  return s;
}

}  // namespace bc::testing
