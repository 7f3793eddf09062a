// A run CI can trust, as a user meets it: every bad input line named FILE:LINE on the console and in the reports
// while the good ones run, output folders that hold one run's set, valid UTF-8 everywhere, no PASSED for a run
// that checked nothing, strict numbers and options, lint, --op, --version.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

namespace {

const std::string kSeeds = bc::test_source_dir() + "/corpus/seeds.jsonl";
const std::string kKnown = bc::test_source_dir() + "/corpus/known_divergences.jsonl";
const std::string kAddLine = R"({"id": "good", "op": "add", "shapes": [[2, 1], [3]]})";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

nlohmann::json summary_of(const fs::path& out) { return nlohmann::json::parse(slurp(out / "summary.json")); }

fs::path file_with(const std::string& name, const std::string& content) {
  const fs::path p = scratch(name);
  std::ofstream(p, std::ios::binary | std::ios::trunc) << content;
  return p;
}

bool listed(const nlohmann::json& errors, const std::string& part) {
  for (const auto& e : errors)
    if (has(e.get<std::string>(), part)) return true;
  return false;
}

TEST(CliInputs, ALineThatIsNotUtf8IsAnInputErrorAndEveryReportIsWritten) {
  const fs::path corpus = file_with("not-utf8.jsonl", kAddLine + "\n{\"op\": \"add\", \"note\": \"caf\xE9\", \"shapes\": [[1], [1]]}\n");
  const fs::path out = scratch("not-utf8-out");
  CliRun r = broadcheck("replay " + corpus.string() + " --results all --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const std::string error = corpus.string() + ":2: not valid UTF-8: byte 27 is \\xE9";
  EXPECT_TRUE(has(r.output, error)) << r.output;
  const nlohmann::json summary = summary_of(out);  // parses: valid UTF-8
  EXPECT_TRUE(listed(summary["input_errors"], error)) << summary["input_errors"];
  EXPECT_EQ(case_lines(out / "results.jsonl").size(), 1u) << "the good line ran";
  EXPECT_TRUE(has(slurp(out / "junit.xml"), "<testsuites"));
  EXPECT_TRUE(has(slurp(out / "report.html"), "byte 27 is \\xE9"));
}

// Input errors make the exit code 2, but a new finding among the lines that ran is news it must not hide: the
// verdict line, report.html and summary.md name both, worst first (issue 36).
TEST(CliInputs, InputErrorsDoNotHideANewFinding) {
  const fs::path corpus = file_with("bad-and-new.jsonl", std::string(R"({"op": "add_", "shapes": [[1], [3]]})") +
                                                         "\n{\"op\": \"addd\", \"shapes\": [[1]]}\n");
  const fs::path out = scratch("bad-and-new-out");
  CliRun r = broadcheck("replay " + corpus.string() + " --no-known --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const std::string verdict = r.output.substr(r.output.find("INPUT ERRORS"));
  EXPECT_EQ(verdict.rfind("INPUT ERRORS: 1 input error(s)", 0), 0u) << r.output;
  EXPECT_NE(verdict.substr(0, verdict.find('\n')).find("FAILED: 1 new finding(s)"), std::string::npos) << r.output;
  EXPECT_TRUE(has(slurp(out / "report.html"), "FAILED: 1 new finding(s)"));
  const std::string md = slurp(out / "summary.md");
  EXPECT_TRUE(has(md.substr(0, md.find('\n')), "FAILED: 1 new finding(s)")) << md;
}

TEST(CliInputs, AReusedOutputFolderNeverMixesTwoRuns) {
  const fs::path out = scratch("reused-out");
  fs::create_directories(out);
  for (const char* name : {"results.jsonl", "summary.json", "junit.xml", "report.html"})
    std::ofstream(out / name) << "EARLIER RUN\n";
  // Bad usage found by the run itself: it writes the reports it can, and no earlier output survives.
  CliRun r = broadcheck("run --property nope --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  for (const char* name : {"results.jsonl", "summary.json", "junit.xml", "report.html"})
    EXPECT_FALSE(has(slurp(out / name), "EARLIER RUN")) << name;
  EXPECT_TRUE(listed(summary_of(out)["input_errors"], "unknown property \"nope\""));
  for (const auto& entry : fs::directory_iterator(out))
    EXPECT_NE(entry.path().filename().string().rfind(".broadcheck-partial", 0), 0u) << "no staging folder is left";
}

TEST(CliInputs, AnOutputFolderThatCannotBeWrittenIsBadInput) {
  CliRun r = broadcheck("replay --case '" + kAddLine + "' --out /proc/version/out");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "/proc/version/out: cannot create the output folder")) << r.output;
  const fs::path out = scratch("taken-out");
  fs::create_directories(out / "summary.json");  // a folder where a report must go
  CliRun taken = broadcheck("replay --case '" + kAddLine + "' --out " + out.string());
  EXPECT_EQ(taken.exit_code, 2) << taken.output;
  EXPECT_TRUE(has(taken.output, (out / "summary.json").string())) << taken.output;
  EXPECT_FALSE(has(taken.output, "internal error")) << taken.output;
}

TEST(CliInputs, AnInternalErrorStillWritesTheReports) {
  const fs::path out = scratch("internal-out");
  const std::string cmd = "BROADCHECK_INJECT_INTERNAL_ERROR=1 " + bc::test_binary_dir() +
                          "/broadcheck replay --quiet --results all --case '" + kAddLine + "' --out " + out.string() +
                          " > " + scratch("internal-log").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 3) << slurp(scratch("internal-log"));
  EXPECT_TRUE(has(slurp(scratch("internal-log")), "internal error")) << slurp(scratch("internal-log"));
  const nlohmann::json summary = summary_of(out);
  EXPECT_EQ(summary["exit_code"], 3);
  EXPECT_TRUE(has(summary.value("internal_error", ""), "BROADCHECK_INJECT_INTERNAL_ERROR"));
  EXPECT_EQ(case_lines(out / "results.jsonl").size(), 1u) << "what ran before the failure is kept";
  EXPECT_TRUE(has(slurp(out / "report.html"), "INTERNAL ERROR"));
  EXPECT_TRUE(has(slurp(out / "junit.xml"), "<testsuites"));
}

TEST(CliInputs, EveryBadDeclarationIsNamedAndTheGoodOnesStillApply) {
  // The project's declarations plus two bad lines: xtensor's resizing add_ stays known.
  const fs::path known = file_with("known-bad.jsonl", slurp(kKnown) + "{\"id\": \"broken\",\n" +
                                   R"({"id": "nameless", "oracle": "torch", "reason": "r"})" + "\n");
  const size_t good_lines = lines(kKnown).size();
  const fs::path out = scratch("known-bad-out");
  CliRun r = broadcheck("replay --case '{\"op\": \"add_\", \"shapes\": [[1], [3]]}' --known " + known.string() +
                        " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(has(r.output, known.string() + ":" + std::to_string(good_lines + 1) + ": ")) << r.output;
  EXPECT_TRUE(has(r.output, known.string() + ":" + std::to_string(good_lines + 2) + ": missing \"reference\""))
      << r.output;
  const nlohmann::json summary = summary_of(out);
  EXPECT_EQ(summary["input_errors"].size(), 2u) << summary["input_errors"];
  EXPECT_EQ(summary["declarations"].size(), good_lines);
  EXPECT_EQ(summary["verdicts"].value("known", 0), 1) << "the good declarations still explain the case";
}

TEST(CliInputs, FoldersAreNotInputFiles) {
  const fs::path dir = scratch("a-folder");
  fs::create_directories(dir);
  CliRun known = broadcheck("replay --case '" + kAddLine + "' --known " + dir.string() + " --out " +
                            scratch("folder-out").string());
  EXPECT_EQ(known.exit_code, 2) << known.output;
  EXPECT_TRUE(has(known.output, dir.string() + ":0: cannot read it: a directory, not a file")) << known.output;
  CliRun corpus = broadcheck("replay " + dir.string() + " --case '" + kAddLine + "' --out " + scratch("folder-out").string());
  EXPECT_EQ(corpus.exit_code, 2) << corpus.output;
  EXPECT_TRUE(has(corpus.output, dir.string() + ":0: cannot read it: a directory, not a file")) << corpus.output;
  CliRun missing = broadcheck("run --cases 1 --corpus-dir " + (dir / "none").string() + " --no-known --out " +
                              scratch("folder-out").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_TRUE(has(missing.output, "--corpus-dir " + (dir / "none").string() + ": not a folder")) << missing.output;
}

TEST(CliInputs, ARunThatChecksNothingDoesNotPass) {
  const fs::path out = scratch("nothing-out");
  CliRun none = broadcheck("run --cases 0 --no-replay --out " + out.string());
  EXPECT_EQ(none.exit_code, 2) << none.output;
  EXPECT_TRUE(has(none.output, "NOTHING CHECKED")) << none.output;
  EXPECT_FALSE(has(none.output, "PASSED")) << none.output;
  EXPECT_TRUE(listed(summary_of(out)["input_errors"], "nothing was checked"));
  EXPECT_TRUE(has(slurp(out / "report.html"), "NOTHING CHECKED"));
  const fs::path empty = file_with("empty.jsonl", "\n\n");
  EXPECT_EQ(broadcheck("replay " + empty.string() + " --out " + out.string()).exit_code, 2);
}

TEST(CliInputs, LintChecksEveryLineWithoutRunning) {
  CliRun clean = broadcheck("lint " + kSeeds + " " + kKnown);
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  EXPECT_TRUE(has(clean.output, "0 error(s)")) << clean.output;
  const fs::path corpus = file_with("lint.jsonl", kAddLine + "\n{\"op\": \"addd\", \"shapes\": [[1], [1]]}\n" + kAddLine +
                                                      "\n{\"op\": \"add\"\n");
  const fs::path known = file_with("known_divergences.jsonl", "{\"id\": \"x\"}\n");
  CliRun bad = broadcheck("lint " + corpus.string() + " " + known.string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(has(bad.output, corpus.string() + ":2: unknown op \"addd\"")) << bad.output;
  EXPECT_TRUE(has(bad.output, corpus.string() + ":3: duplicate id \"good\"")) << bad.output;
  EXPECT_TRUE(has(bad.output, corpus.string() + ":4: not valid JSON")) << bad.output;
  EXPECT_TRUE(has(bad.output, known.string() + ":1: missing \"oracle\"")) << bad.output;
  EXPECT_TRUE(has(bad.output, "4 error(s)")) << bad.output;
}

// Lines nested without end (a segfault, a summary.json of gigabytes, a crashed adapter reported as a finding,
// as they were) are refused alike by lint and by a run, each FILE:LINE, and the lines around them still run.
TEST(CliInputs, DeeplyNestedLinesAreRefusedByLintAndByARun) {
  std::string text = kAddLine + "\n";
  for (const int depth : {100000, 30000, 1000})
    text += R"({"op": "mul", "shapes": [[2], [2]], "x": )" + std::string(depth, '[') + std::string(depth, ']') + "}\n";
  text += R"({"op": "sub", "shapes": [[2], [2]]})" "\n";
  const fs::path corpus = file_with("deep.jsonl", text);
  const std::string why = ": arrays and objects nest deeper than the limit of 64 levels";
  CliRun lint = broadcheck("lint " + corpus.string());
  EXPECT_EQ(lint.exit_code, 2) << lint.output;
  for (const int line : {2, 3, 4}) EXPECT_TRUE(has(lint.output, corpus.string() + ":" + std::to_string(line) + why)) << lint.output;
  const fs::path out = scratch("deep-out");
  CliRun run = broadcheck("replay " + corpus.string() + " --results all --out " + out.string());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_LT(fs::file_size(out / "summary.json"), 1000000u);
  const nlohmann::json summary = summary_of(out);
  EXPECT_EQ(summary["input_errors"].size(), 3u) << summary["input_errors"];
  EXPECT_EQ(summary["findings"].size(), 0u) << "no implementation saw the deep lines";
  EXPECT_EQ(case_lines(out / "results.jsonl").size(), 2u);
}

// NumPy's own test matmul([10000, 10, 10], [1, 10, 10]): a result of 1,000,000 elements from 10,000,000 terms, which
// no implementation holds at once (xtensor's sum is lazy). It was refused as an input error; it runs everywhere.
TEST(CliInputs, AProductOfManyTermsAndASmallResultRunsEverywhere) {
  const fs::path out = scratch("numpy-matmul-out");
  CliRun r = broadcheck(R"(replay --case '{"op": "matmul", "shapes": [[10000, 10, 10], [1, 10, 10]]}' --results all --out )" +
                        out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto results = case_lines(out / "results.jsonl");
  ASSERT_EQ(results.size(), 1u) << r.output;
  const nlohmann::json outcomes = nlohmann::json::parse(results[0])["outcomes"];
  for (const char* name : {"engine", "torch", "xtensor"})
    EXPECT_EQ(outcomes[name]["shape"], nlohmann::json::parse("[10000, 10, 10]")) << name << ": " << outcomes;
}

TEST(CliInputs, VersionNamesTheCommitAndTheLibraries) {
  CliRun r = broadcheck("--version");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("broadcheck ", 0), 0u) << r.output;
  EXPECT_TRUE(has(r.output, "\ntorch: LibTorch 1.13")) << r.output;
  EXPECT_TRUE(has(r.output, "\nxtensor: xtensor 0.24")) << r.output;
}

TEST(CliInputs, OpRestrictsGeneratedAndReplayedCases) {
  const fs::path out = scratch("op-out");
  CliRun r = broadcheck("run --seed 2 --cases 30 --op add --op mul --no-known --quiet --results all --out " + out.string());
  ASSERT_NE(r.exit_code, 2) << r.output;
  const auto results = case_lines(out / "results.jsonl");
  EXPECT_GT(results.size(), 10u);
  for (const std::string& l : results) {
    const std::string op = nlohmann::json::parse(l)["case"]["op"];
    EXPECT_TRUE(op == "add" || op == "mul") << l;
  }
  // Coverage classes of other ops cannot be met under --op, so none is required (skipped cases count nowhere).
  EXPECT_EQ(summary_of(out)["coverage"].value("missing", nlohmann::json::array()), nlohmann::json::array());
  const fs::path replayed = scratch("op-replay");
  ASSERT_EQ(broadcheck("replay " + kSeeds + " --op expand --quiet --results all --out " + replayed.string()).exit_code, 0);
  for (const std::string& l : case_lines(replayed / "results.jsonl"))
    EXPECT_EQ(nlohmann::json::parse(l)["case"]["op"], "expand") << l;
  EXPECT_FALSE(case_lines(replayed / "results.jsonl").empty());
  // --cases counts the cases of the chosen ops each property runs, not its draws.
  const fs::path counted = scratch("op-counted");
  CliRun twenty = broadcheck("run --seed 2 --cases 20 --op add --no-replay --property elementwise_agree --property "
                             "inplace_agree --out " + counted.string());
  ASSERT_NE(twenty.exit_code, 2) << twenty.output;
  EXPECT_EQ(summary_of(counted)["cases"]["elementwise_agree"], 20) << twenty.output;
  EXPECT_TRUE(has(twenty.output, "--op: inplace_agree drew 0 case(s) of these ops in 2000 draws")) << twenty.output;
  CliRun unknown = broadcheck("run --op plus --out " + out.string());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_TRUE(has(unknown.output, "unknown op \"plus\"; valid ops: add, ")) << unknown.output;
}

TEST(CliInputs, QuietStillSaysTheVerdictAndWhereTheReportIs) {
  const fs::path out = scratch("quiet-out");
  CliRun r = broadcheck("replay --quiet --case '" + kAddLine + "' --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "PASSED: nothing new disagrees in 1 case(s)\nreport: " + out.string() + "/report.html\n");
}

TEST(CliInputs, NumbersAreReadStrictly) {
  const std::string out = " --out " + scratch("numbers-out").string();
  for (const char* bad_text : {"--time nan", "--time inf", "--time -1", "--time 0", "--time 5x", "--cases 1.5",
                                 "--cases -2", "--seed 18446744073709551616", "--seed -1", "--seed 0x10",
                                 "--timeout-ms 0", "--timeout-ms 10ms"}) {
    const std::string bad = bad_text;
    CliRun r = broadcheck("run " + bad + out);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, bad.substr(0, bad.find(' ')) + " wants ")) << bad << ": " << r.output;
  }
  EXPECT_TRUE(has(broadcheck("run --help").output, "0 is refused")) << "--help says what --time 0 does";
}

TEST(CliInputs, APropertyGivenTwiceIsBadUsage) {
  const fs::path out = scratch("property-twice-out");
  CliRun r = broadcheck("run --cases 2 --no-replay --property elementwise_agree --property elementwise_agree --out " +
                        out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(listed(summary_of(out)["input_errors"], "--property elementwise_agree is given twice"));
}

TEST(CliInputs, CaseTakesOneValueAndLeavesTheFilesAndOut) {
  const fs::path corpus = file_with("after-case.jsonl", R"({"op": "mul", "shapes": [[2], [2]]})" "\n");
  const fs::path out = scratch("after-case-out");
  CliRun r = broadcheck("replay --results all --case '" + kAddLine + "' " + corpus.string() + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(case_lines(out / "results.jsonl").size(), 2u) << "the file after --case is a corpus file, not a second case";
  CliRun reproduce = broadcheck("replay --results all --reproduce bc1/1/inplace_agree/0/- " + corpus.string() + " --out " + out.string());
  EXPECT_EQ(reproduce.exit_code, 0) << reproduce.output;
  EXPECT_EQ(case_lines(out / "results.jsonl").size(), 2u);
}

// A declaration that covers the replayed case and explains nothing is stale: listed by default, a failure of the
// run (exit 1, a JUnit failure, the verdict line) under --fail-on-stale.
TEST(CliInputs, FailOnStaleMakesAStaleDeclarationFailTheRun) {
  const fs::path corpus = file_with("stale-corpus.jsonl", kAddLine + "\n");
  const fs::path known = file_with("stale-known.jsonl",
      R"({"id": "never-matches", "oracle": "torch", "ops": ["add"], "actual": {"status": "crash"}, "reason": "r", "reference": "r"})" "\n");
  const fs::path out = scratch("stale-out");
  const std::string args = "replay " + corpus.string() + " --no-config --known " + known.string() + " --out " + out.string();
  CliRun listed_only = broadcheck(args);
  EXPECT_EQ(listed_only.exit_code, 0) << listed_only.output;
  EXPECT_TRUE(has(listed_only.output, "STALE declaration never-matches")) << listed_only.output;
  EXPECT_TRUE(has(slurp(out / "junit.xml"), "<skipped message=\"stale: covered 1 case(s), explained 0")) << slurp(out / "junit.xml");
  CliRun failed = broadcheck(args + " --fail-on-stale");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  EXPECT_TRUE(has(failed.output, "FAILED: 1 stale declaration(s) under --fail-on-stale")) << failed.output;
  EXPECT_TRUE(has(slurp(out / "junit.xml"), "<failure message=\"stale under --fail-on-stale")) << slurp(out / "junit.xml");
  EXPECT_EQ(summary_of(out)["fail_on_stale"], true);
}

// Three cases of reductions_agree cannot draw every class it requires: listed by default, a failure of the run (exit
// 1, the verdict line) under --fail-on-missing-coverage, and recorded in summary.json.
TEST(CliInputs, FailOnMissingCoverageMakesAClassNeverDrawnFailTheRun) {
  const fs::path out = scratch("coverage-out");
  const std::string args = "run --seed 1 --cases 3 --property reductions_agree --no-replay --no-config --out " + out.string();
  CliRun listed_only = broadcheck(args);
  EXPECT_EQ(listed_only.exit_code, 0) << listed_only.output;
  EXPECT_TRUE(has(listed_only.output, "coverage MISSING: reductions_agree: ")) << listed_only.output;
  EXPECT_EQ(summary_of(out)["fail_on_missing_coverage"], false);
  CliRun failed = broadcheck(args + " --fail-on-missing-coverage");
  EXPECT_EQ(failed.exit_code, 1) << failed.output;
  EXPECT_TRUE(has(failed.output, "coverage class(es) never drawn under --fail-on-missing-coverage")) << failed.output;
  EXPECT_EQ(summary_of(out)["fail_on_missing_coverage"], true);
  EXPECT_FALSE(summary_of(out)["coverage"]["missing"].empty());
}

// --strict-zeros changes verdicts (the rule itself: tests/harness/judge_numbers_test.cpp), so it is part of the
// run's flags: runs with and without it do not merge.
TEST(CliInputs, StrictZerosIsPartOfTheRunsFlags) {
  const fs::path corpus = file_with("zeros-corpus.jsonl", kAddLine + "\n");
  const fs::path a = scratch("zeros-a"), b = scratch("zeros-b");
  EXPECT_EQ(broadcheck("replay " + corpus.string() + " --no-config --out " + a.string()).exit_code, 0);
  EXPECT_EQ(broadcheck("replay " + corpus.string() + " --no-config --strict-zeros --out " + b.string()).exit_code, 0);
  EXPECT_NE(summary_of(a)["fingerprint"]["flags"], summary_of(b)["fingerprint"]["flags"]);
}

}  // namespace
