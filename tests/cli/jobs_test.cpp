// `broadcheck run --jobs N` (cli/jobs.h), through the real binary: the outputs of N processes are those of one.
#include <gtest/gtest.h>

#include "cli_util.h"

namespace {

void expect_same_outputs(const fs::path& a, const fs::path& b) {
  EXPECT_EQ(slurp(a / "results.jsonl"), slurp(b / "results.jsonl"));
  EXPECT_EQ(summary_without_timing(a), summary_without_timing(b));
  EXPECT_EQ(report_without_timing(a), report_without_timing(b));
}

TEST(Jobs, TwoOrThreeJobsWriteWhatOneProcessWrites) {
  // --no-known: undeclared differences, so findings (shrunk in the jobs) are part of what must match.
  const std::string args = "run --seed 11 --cases 60 --no-known --quiet --out ";
  ASSERT_EQ(broadcheck(args + scratch("one").string() + " --jobs 1").exit_code, 1);
  ASSERT_GT(nlohmann::json::parse(slurp(scratch("one") / "summary.json"))["findings"].size(), 0u);
  for (const char* jobs : {"2", "3"}) {
    const fs::path out = scratch(std::string("jobs") + jobs);
    CliRun r = broadcheck(args + out.string() + " --jobs " + jobs);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    expect_same_outputs(scratch("one"), out);
    EXPECT_FALSE(fs::exists(out / "jobs")) << "the jobs' own folders are removed after the merge";
  }
}

TEST(Jobs, JobsOfAShardSplitThatShard) {
  const std::string args = "run --seed 5 --cases 30 --no-replay --quiet --shard 1/2 --out ";
  ASSERT_EQ(broadcheck(args + scratch("shard-one").string() + " --jobs 1").exit_code, 0);
  ASSERT_EQ(broadcheck(args + scratch("shard-two").string() + " --jobs 2").exit_code, 0);
  expect_same_outputs(scratch("shard-one"), scratch("shard-two"));
  EXPECT_EQ(nlohmann::json::parse(slurp(scratch("shard-two") / "summary.json"))["shard"], "1/2");
}

TEST(Jobs, BadUsageIsReportedOnceAndExitsTwo) {
  CliRun r = broadcheck("run --jobs 2 --property nope --out " + scratch("jobs-nope").string());
  EXPECT_EQ(r.exit_code, 2);
  const auto first = r.output.find("unknown property");
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("unknown property", first + 1), std::string::npos) << r.output;
  EXPECT_EQ(broadcheck("run --jobs 0").exit_code, 2);
}

TEST(Jobs, ASignalToTheParentAloneStopsEveryJobAndTheRunReportsWhatRan) {
  const fs::path out = scratch("jobs-interrupt"), code = scratch("jobs-interrupt-code");
  const std::string cmd = "sh -c '" + bc::test_binary_dir() +
                          "/broadcheck run --seed 1 --time 60 --no-known --jobs 2 --quiet --out " + out.string() +
                          " & pid=$!; "
                          "for i in $(seq 100); do [ -s " + (out / "jobs/1/results.jsonl").string() +
                          " ] && break; sleep 0.1; done; sleep 1; kill -TERM $pid; wait $pid; echo $? > " +
                          code.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(code), "1\n") << "undeclared findings were made before the signal";
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_TRUE(summary["interrupted"].get<bool>());
  EXPECT_EQ(summary["signal"], 15);
  EXPECT_LT(summary["seconds"].get<double>(), 30.0);
  long cases = 0;
  for (const auto& [property, n] : summary["cases"].items()) cases += n.get<long>();
  EXPECT_GT(cases, 100) << "both jobs' cases are in the merged summary";
  EXPECT_FALSE(case_lines(out / "results.jsonl").empty());
}

}  // namespace
