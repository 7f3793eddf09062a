// The scoreboard from hand-built run records: who ran, agreed, departed (declared or new) or could not run, per op
// family; unfused twins count once; shards sum; JSON round-trips.
#include "harness/scoreboard.h"

#include <gtest/gtest.h>

#include "harness/run_record.h"

namespace bc {
namespace {

CaseRecord record(const std::string& op, Outcomes outcomes, Verdict verdict, std::vector<std::string> odd) {
  CaseRecord r;
  r.c.op = op_from_name(op).value();
  r.c.shapes = {{2}, {2}};
  r.outcomes = std::move(outcomes);
  r.judgement.verdict = verdict;
  r.judgement.odd_ones = std::move(odd);
  return r;
}

TEST(Scoreboard, CountsEachImplementationsStandingPerFamily) {
  Scoreboard board;
  const Outcome ok = Outcome::success({2});
  add_to_scoreboard(board, record("add", {{"engine", ok}, {"torch", ok}, {"numpy", ok}}, Verdict::agree, {}));
  add_to_scoreboard(board, record("add", {{"engine", ok}, {"torch", ok}, {"numpy", Outcome::success({3})}},
                                  Verdict::discrepancy, {"numpy"}));
  add_to_scoreboard(board, record("add_", {{"engine", ok}, {"torch", ok}, {"numpy", Outcome::success({3})}},
                                  Verdict::known, {"numpy"}));
  add_to_scoreboard(board, record("matmul", {{"engine", ok}, {"numpy", Outcome::unsupported_because("no")}},
                                  Verdict::agree, {}));
  EXPECT_EQ(board["numpy"]["elementwise"], (Score{2, 1, 0, 1, 0}));
  EXPECT_EQ(board["numpy"]["inplace"], (Score{1, 0, 1, 0, 0}));
  EXPECT_EQ(board["numpy"]["matmul"], (Score{0, 0, 0, 0, 1}));
  EXPECT_EQ(board["engine"]["elementwise"], (Score{2, 2, 0, 0, 0}));
  EXPECT_EQ(board.count("torch"), 1u);
  EXPECT_EQ(board["torch"].count("matmul"), 0u) << "torch had no outcome in the matmul case";
}

TEST(Scoreboard, UnfusedTwinsCountOnceAndShardsSum) {
  Scoreboard a, b;
  const Outcome ok = Outcome::success({2});
  add_to_scoreboard(a, record("addcmul", {{"engine", ok}, {"engine unfused", ok}}, Verdict::agree, {}));
  add_to_scoreboard(b, record("addcmul", {{"engine", ok}, {"engine unfused", ok}}, Verdict::discrepancy, {"engine"}));
  EXPECT_EQ(a.count("engine unfused"), 0u);
  merge_scoreboards(a, b);
  EXPECT_EQ(a["engine"]["elementwise"], (Score{2, 1, 0, 1, 0}));
  EXPECT_EQ(scoreboard_from_json(to_json(a)), a);
  EXPECT_EQ(to_json(a)["engine"]["elementwise"]["new"], 1);
}

TEST(Scoreboard, AnImplementationsTotalSumsItsFamilies) {
  Scoreboard board;
  board["numpy"]["elementwise"] = Score{2, 1, 0, 1, 3};
  board["numpy"]["matmul"] = Score{5, 4, 1, 0, 0};
  EXPECT_EQ(total_score(board["numpy"]), (Score{7, 5, 1, 1, 3}));
  EXPECT_EQ(total_score(FamilyScores{}), Score{});
}

}  // namespace
}  // namespace bc
