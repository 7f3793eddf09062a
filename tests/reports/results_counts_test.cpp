// The count lines of results.jsonl: what a run adds up, how they read back and add up across shards.
#include "reports/results_counts.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

TEST(ResultsCounts, OneLinePerPropertySortedWithCasesVerdictsAndWrittenLines) {
  ResultsCounts c;
  c.add("matmul_agree", "agree", false);
  c.add("corpus", "known", true);
  c.add("matmul_agree", "discrepancy", true);
  c.add("matmul_agree", "agree", false);
  EXPECT_EQ(
      c.lines(),
      (std::vector<std::string>{
          R"({"counts":{"cases":1,"verdicts":{"known":1},"written":1},"property":"corpus"})",
          R"({"counts":{"cases":3,"verdicts":{"agree":2,"discrepancy":1},"written":1},"property":"matmul_agree"})"}));
}

TEST(ResultsCounts, LinesReadBackAddUp) {
  ResultsCounts shard0, shard1, merged;
  shard0.add("p", "agree", false);
  shard0.add("p", "known", true);
  shard1.add("p", "agree", false);
  shard1.add("q", "expect_failed", true);
  for (const ResultsCounts* s : {&shard0, &shard1})
    for (const std::string& line : s->lines()) {
      const auto j = nlohmann::json::parse(line);
      ASSERT_TRUE(ResultsCounts::is_count_line(j));
      merged.add_line(j);
    }
  EXPECT_EQ(merged.lines(),
            (std::vector<std::string>{
                R"({"counts":{"cases":3,"verdicts":{"agree":2,"known":1},"written":1},"property":"p"})",
                R"({"counts":{"cases":1,"verdicts":{"expect_failed":1},"written":1},"property":"q"})"}));
  EXPECT_FALSE(ResultsCounts::is_count_line(nlohmann::json::parse(R"({"case":{},"verdict":"agree"})")));
  EXPECT_THROW(merged.add_line(nlohmann::json::parse(R"({"counts":{"cases":1},"property":"p"})")),
               nlohmann::json::exception);
}

}  // namespace
}  // namespace bc
