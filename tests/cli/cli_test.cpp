// The command line as a user meets it: exit codes, output files, bad input, determinism.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

namespace {

const std::string kSeeds = bc::test_source_dir() + "/corpus/seeds.jsonl";

}  // namespace

TEST(Cli, HelpOnEveryCommand) {
  CliRun top = broadcheck("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.output.find("replay"), std::string::npos);
  CliRun run = broadcheck("run --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.output.find("--seed"), std::string::npos);
  EXPECT_EQ(broadcheck("replay --help").exit_code, 0);
}

TEST(Cli, BadUsageExitsTwo) {
  EXPECT_EQ(broadcheck("").exit_code, 2);
  EXPECT_EQ(broadcheck("run --cases many").exit_code, 2);
  EXPECT_EQ(broadcheck("frobnicate").exit_code, 2);
  CliRun r = broadcheck("run --property nope --out " + scratch("nope").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("elementwise_agree"), std::string::npos) << "the error lists the valid properties";
  EXPECT_EQ(broadcheck("replay").exit_code, 2);
}

TEST(Cli, ReplayOfTheSeedCorpusWritesEveryReportAndPasses) {
  const fs::path out = scratch("seeds");
  CliRun r = broadcheck("replay " + kSeeds + " --results all --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto results = case_lines(out / "results.jsonl");
  EXPECT_EQ(results.size(), lines(kSeeds).size());
  for (const std::string& l : results) {
    EXPECT_NE(l.find("\"case\""), std::string::npos);
    EXPECT_NE(l.find("\"outcomes\":{"), std::string::npos);
    EXPECT_NE(l.find("\"engine\":{"), std::string::npos);
    EXPECT_NE(l.find("\"verdict\""), std::string::npos);
  }
  EXPECT_NE(slurp(out / "junit.xml").find("<testsuites"), std::string::npos);
  EXPECT_NE(slurp(out / "report.html").find("</html>"), std::string::npos);
  EXPECT_NE(slurp(out / "summary.json").find("\"findings\""), std::string::npos);
}

TEST(Cli, UndeclaredDifferencesFailTheRun) {
  // Without the declarations, xtensor's resizing += and the documents' old claims are new findings.
  EXPECT_EQ(broadcheck("replay " + kSeeds + " --no-known --out " + scratch("undeclared").string()).exit_code, 1);
  const std::string resize = "--case '{\"op\": \"add_\", \"shapes\": [[1], [3]]}'";
  EXPECT_EQ(broadcheck("replay " + resize + " --out " + scratch("declared").string()).exit_code, 0);
  EXPECT_EQ(broadcheck("replay " + resize + " --no-known --out " + scratch("declared").string()).exit_code, 1);
}

TEST(Cli, FailedExpectationExitsOne) {
  CliRun r = broadcheck("replay --case '{\"op\": \"add\", \"shapes\": [[2], [3]], \"expect\": {\"shape\": [2]}}' --out " +
                        scratch("expect").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(slurp(scratch("expect") / "results.jsonl").find("\"verdict\":\"expect_failed\""), std::string::npos);
}

TEST(Cli, ReplayKeepsInt64ValuesExactInEveryOutcome) {
  const fs::path out = scratch("exact");
  const std::string c = R"({"op": "add", "shapes": [[3], [3]], "dtypes": ["int64", "int64"], "values": {"data":
      [[9007199254740993, 9223372036854775807, -9223372036854775808], [0, -1, 0]]}})";
  CliRun r = broadcheck("replay --case '" + c + "' --results all --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string text = case_lines(out / "results.jsonl").at(0);
  const auto line = nlohmann::json::parse(text);
  EXPECT_EQ(line["verdict"], "agree") << text;
  EXPECT_NE(text.find("[9007199254740993,9223372036854775807,-9223372036854775808]"), std::string::npos)
      << "the case's data as integers:\n" << text;
  const auto want = nlohmann::json::parse("[9007199254740993, 9223372036854775806, -9223372036854775808]");
  for (const char* name : {"engine", "torch", "xtensor"}) {
    ASSERT_TRUE(line["outcomes"].contains(name)) << text;
    EXPECT_EQ(line["outcomes"][name]["values"], want) << name;
  }
  for (const auto& [name, o] : line["outcomes"].items())  // every one that answers (the documents state no int64)
    if (o["status"] != "unsupported") { EXPECT_EQ(o["values"], want) << name << ": " << text; }
}

TEST(Cli, FindingsWithInt64DataReplayAndDraftTheExactValues) {
  // LibTorch traps on INT64_MIN % -1 (corpus/findings.jsonl): without the declaration, a finding.
  const fs::path out = scratch("exact-finding");
  CliRun r = broadcheck(R"(replay --no-known --quiet --case '{"op": "remainder", "shapes": [[2], [2]], "dtypes":
      ["int64", "int64"], "values": {"data": [[-9223372036854775808, 9007199254740993], [-1, 2]]}}' --out )" +
                        out.string());
  ASSERT_EQ(r.exit_code, 1) << r.output;
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  ASSERT_FALSE(summary["findings"].empty()) << r.output;
  const auto& finding = summary["findings"][0];
  const std::string command = finding["replay_command"].get<std::string>();
  EXPECT_NE(command.find("[-9223372036854775808,9007199254740993]"), std::string::npos) << command;
  const std::string draft = finding["regression_draft"].get<std::string>();
  EXPECT_NE(draft.find("make_ints({INT64_MIN, 9007199254740993}, {2}, at::kLong)"), std::string::npos) << draft;
  // The replay command runs the same case again, values and all (in a folder of its own, named after the case).
  const fs::path again = scratch("exact-finding-again");
  fs::remove_all(again);
  fs::create_directories(again);
  EXPECT_EQ(WEXITSTATUS(std::system(("cd " + again.string() + " && " + command + " --quiet > /dev/null 2>&1").c_str())), 1);
  const fs::path written = again / ("broadcheck-" + command.substr(command.find("finding-"), 20));
  const auto replayed = nlohmann::json::parse(lines(written / "results.jsonl").at(0));
  EXPECT_EQ(replayed["case"]["values"], finding["minimal"]["case"]["values"]);
  EXPECT_EQ(replayed["case"]["values"]["data"][0], nlohmann::json::parse("[-9223372036854775808, 9007199254740993]"));
}

TEST(Cli, BadCorpusLinesAreNamedAndTheRestRuns) {
  const fs::path corpus = scratch("bad.jsonl");
  std::ofstream(corpus) << "{\"id\": \"fine\", \"op\": \"add\", \"shapes\": [[2, 1], [3]]}\n"
                        << "{\"op\": \"add\", \"shapes\": [[2, 1], [3]\n"
                        << "{\"op\": \"addd\", \"shapes\": [[2], [2]]}\n"
                        << "{\"op\": \"add\", \"shapes\": [[4096, 4096], [1]]}\n";
  const fs::path out = scratch("bad-out");
  CliRun r = broadcheck("replay " + corpus.string() + " --results all --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find(corpus.string() + ":2: not valid JSON"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(corpus.string() + ":3: unknown op \"addd\"; valid ops: add, "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(corpus.string() + ":4: shapes[0] [4096, 4096] has"), std::string::npos) << r.output;
  EXPECT_EQ(case_lines(out / "results.jsonl").size(), 1u) << "the good line still ran";
  EXPECT_NE(slurp(out / "report.html").find(":3: unknown op"), std::string::npos) << "the report lists input errors";
}

TEST(Cli, SameSeedSameResults) {
  const std::string args = "run --seed 3 --cases 40 --no-replay --quiet --results all --out ";
  ASSERT_EQ(broadcheck(args + scratch("det-a").string()).exit_code, 0);
  ASSERT_EQ(broadcheck(args + scratch("det-b").string()).exit_code, 0);
  const std::string a = slurp(scratch("det-a") / "results.jsonl");
  EXPECT_GT(case_lines(scratch("det-a") / "results.jsonl").size(), 40u * 6);
  EXPECT_EQ(a, slurp(scratch("det-b") / "results.jsonl"));
  ASSERT_EQ(broadcheck("run --seed 4 --cases 40 --no-replay --quiet --results all --out " + scratch("det-c").string()).exit_code, 0);
  EXPECT_NE(a, slurp(scratch("det-c") / "results.jsonl")) << "another seed gives other cases";
}

// LibTorch's out-of-place baddbmm with beta 0 returns uninitialized memory: declared nondeterministic, its numbers
// are withheld and every such case is known with that declaration, so two runs write the same lines.
TEST(Cli, TheBaddbmmBeta0CasesAreADeclaredNondeterministicDepartureInEveryRun) {
  const std::string args =
      "run --seed 1 --cases 600 --no-replay --no-config --property fused_agree --op baddbmm --quiet --results all --out ";
  ASSERT_EQ(broadcheck(args + scratch("baddbmm-a").string()).exit_code, 0);
  ASSERT_EQ(broadcheck(args + scratch("baddbmm-b").string()).exit_code, 0);
  const std::vector<std::string> a = case_lines(scratch("baddbmm-a") / "results.jsonl");
  EXPECT_EQ(a, case_lines(scratch("baddbmm-b") / "results.jsonl"));
  long withheld = 0;
  for (const std::string& line : a) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j["case"]["op"] != "baddbmm" || !j["case"].contains("values") ||
        j["case"].value("scalars", nlohmann::json::object()).value("beta", 1.0) != 0.0)
      continue;
    if (j["outcomes"]["torch"]["status"] != "ok") continue;
    ++withheld;
    EXPECT_EQ(j["outcomes"]["torch"]["values"], "nondeterministic") << line;
    EXPECT_EQ(j["verdict"], "known") << line;
    EXPECT_NE(j.value("known", "").find("torch-baddbmm-beta0-uninitialized"), std::string::npos) << line;
  }
  EXPECT_GT(withheld, 0) << "the generator makes value-level baddbmm cases with beta 0";
  const nlohmann::json summary = summary_without_timing(scratch("baddbmm-a"));
  EXPECT_EQ(summary, summary_without_timing(scratch("baddbmm-b")));
  bool seen = false;
  for (const nlohmann::json& u : summary["declarations"])
    if (u["declaration"]["id"] == "torch-baddbmm-beta0-uninitialized") {
      seen = true;
      EXPECT_GT(u["matched"].get<long>(), 0);
      EXPECT_EQ(u["matched"], u["covered"]) << "every covered case is known with it";
    }
  EXPECT_TRUE(seen);
}

// results.jsonl keeps every case that does not simply agree, then one count line per property; --results all keeps
// every case, and the lines it adds are only agreements.
TEST(Cli, ResultsKeepEveryDisagreementAndCountEveryProperty) {
  const std::string args = "run --seed 2 --cases 60 --quiet --out ";
  ASSERT_EQ(broadcheck(args + scratch("res-default").string()).exit_code, 0);
  ASSERT_EQ(broadcheck(args + scratch("res-all").string() + " --results all").exit_code, 0);
  const auto summary = nlohmann::json::parse(slurp(scratch("res-default") / "summary.json"));
  const auto kept = case_lines(scratch("res-default") / "results.jsonl");
  std::vector<std::string> all_but_agree;
  long all_lines = 0;
  for (const std::string& l : case_lines(scratch("res-all") / "results.jsonl")) {
    ++all_lines;
    if (nlohmann::json::parse(l)["verdict"] != "agree") all_but_agree.push_back(l);
  }
  EXPECT_EQ(kept, all_but_agree) << "the default keeps exactly the cases that do not agree";
  EXPECT_GT(kept.size(), 0u) << "seed 2 meets declared divergences";
  long total = 0;
  for (const auto& [verdict, n] : summary["verdicts"].items()) total += n.get<long>();
  EXPECT_EQ(all_lines, total);

  std::map<std::string, long> written;
  for (const std::string& l : kept) ++written[nlohmann::json::parse(l)["property"].get<std::string>()];
  std::map<std::string, long> counted;
  const auto all = lines(scratch("res-default") / "results.jsonl");
  for (size_t i = kept.size(); i < all.size(); ++i) {
    const auto j = nlohmann::json::parse(all[i]);
    const std::string property = j.at("property");
    const auto& c = j.at("counts");
    long by_verdict = 0;
    for (const auto& [verdict, n] : c.at("verdicts").items()) by_verdict += n.get<long>();
    EXPECT_EQ(c.at("cases"), summary["cases"][property]) << all[i];
    EXPECT_EQ(by_verdict, c.at("cases").get<long>()) << all[i];
    EXPECT_EQ(c.at("written").get<long>(), written[property]) << all[i];
    counted[property] = c.at("cases");
  }
  const auto per_property = summary["cases"].get<std::map<std::string, long>>();
  EXPECT_EQ(counted, per_property) << "one count line per property";

  // Each outcome that neither succeeded nor failed counts once, under its own implementation and status, whatever
  // its place among the case's outcomes (an equivalence case's unfused outcomes move the others along).
  std::map<std::string, long> statuses;
  for (const std::string& l : case_lines(scratch("res-all") / "results.jsonl")) {
    const nlohmann::json line = nlohmann::json::parse(l);  // named: the loop must not outlive it
    for (const auto& [name, o] : line.at("outcomes").items()) {
      const std::string status = o.at("status");
      if (status != "ok" && status != "error") ++statuses[name + ":" + status];
    }
  }
  EXPECT_GT(statuses.size(), 1u);
  EXPECT_EQ((summary["statuses"].get<std::map<std::string, long>>()), statuses);
}

// summary.md in --out, and appended to the file $GITHUB_STEP_SUMMARY names (a GitHub Actions job page).
TEST(Cli, SummaryMarkdownGoesToTheOutFolderAndTheStepSummary) {
  const fs::path out = scratch("md"), step = scratch("step-summary.md");
  std::ofstream(step) << "# earlier step\n";
  const std::string cmd = "GITHUB_STEP_SUMMARY=" + step.string() + " " + bc::test_binary_dir() +
                          "/broadcheck replay --no-known -q "
                          "--case '{\"op\": \"add_\", \"shapes\": [[1], [3]]}' --out " + out.string();
  EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 1);
  const std::string md = slurp(out / "summary.md");
  EXPECT_EQ(md.rfind("## broadcheck: FAILED: 1 new finding(s)", 0), 0u) << md;
  // The case as given is the finding's original; shrunk, a 2 fails as the 3 did (a 1 would broadcast).
  EXPECT_NE(md.find("minimal case: `add_([1], [2])`"), std::string::npos) << md;
  EXPECT_NE(md.find("replay: `" + bc::test_binary_dir() + "/broadcheck replay "), std::string::npos) << md;
  EXPECT_NE(md.find((out / "report.html").string()), std::string::npos) << md;
  EXPECT_EQ(slurp(step), "# earlier step\n" + md + "\n");
  // Without the variable, only the folder gets it.
  const fs::path quiet = scratch("md-no-step");
  EXPECT_EQ(broadcheck("replay --no-known -q --case '{\"op\": \"add\", \"shapes\": [[2], [2]]}' --out " +
                       quiet.string()).exit_code, 0);
  EXPECT_EQ(slurp(quiet / "summary.md").rfind("## broadcheck: PASSED", 0), 0u);
  EXPECT_EQ(slurp(step), "# earlier step\n" + md + "\n");
}

// A step summary that cannot be appended to costs the job's page its summary, not the run its verdict.
TEST(Cli, AnUnwritableStepSummaryIsAWarning) {
  const fs::path out = scratch("md-unwritable");
  const std::string step = "/nonexistent-dir-for-broadcheck/step-summary.md", log = scratch("md-unwritable.log");
  const std::string cmd = "GITHUB_STEP_SUMMARY=" + step + " " + bc::test_binary_dir() +
                          "/broadcheck replay --no-known -q --case '{\"op\": \"add_\", \"shapes\": [[1], [3]]}' --out " +
                          out.string() + " 2>" + log;
  EXPECT_EQ(WEXITSTATUS(std::system(cmd.c_str())), 1);
  EXPECT_NE(slurp(log).find("broadcheck: warning: " + step + ": "), std::string::npos) << slurp(log);
  EXPECT_EQ(slurp(out / "summary.md").rfind("## broadcheck: FAILED: 1 new finding(s)", 0), 0u);
}

// The rows a terminal shows of `raw` (what a program wrote to it), each split where "\r\033[K" clears the row.
std::vector<std::vector<std::string>> terminal_rows(std::string raw) {
  for (size_t at; (at = raw.find("\r\n")) != std::string::npos;) raw.replace(at, 2, "\n");
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(raw);
  for (std::string row; std::getline(in, row);) {
    std::vector<std::string> segments;
    for (size_t from = 0;;) {
      const size_t clear = row.find("\r\033[K", from);
      segments.push_back(row.substr(from, clear == std::string::npos ? std::string::npos : clear - from));
      if (clear == std::string::npos) break;
      from = clear + 4;
    }
    rows.push_back(segments);
  }
  return rows;
}

// On a terminal 40 columns wide (a pseudo-terminal from util-linux's script), the progress line is cut to fit, so
// that it is redrawn in place instead of wrapping, and it is cleared before the next message, which starts its row.
TEST(Cli, TheProgressLineFitsTheTerminalAndEndsBeforeEachMessage) {
  const fs::path log = scratch("pty.log");
  const std::string cmd = "env -u COLUMNS -u GITHUB_STEP_SUMMARY script -qec \"stty cols 40; " + bc::test_binary_dir() +
                          "/broadcheck run --seed 1 --cases 100 --no-known --jobs 1 --out " +
                          scratch("pty-out").string() + "\" /dev/null > " + log.string() + " 2>&1";
  std::system(cmd.c_str());
  const std::string raw = slurp(log);
  size_t progress = 0;
  for (const std::vector<std::string>& segments : terminal_rows(raw)) {
    for (size_t k = 0; k + 1 < segments.size(); ++k) {  // redrawn in place: progress
      EXPECT_LT(segments[k].size(), 40u) << segments[k];
      progress += !segments[k].empty();
    }
    for (const char* message : {"checking ", "done in ", "wrote "}) {
      if (segments.back().find(message) == std::string::npos) continue;
      EXPECT_EQ(segments.back().rfind(message, 0), 0u) << "\"" << segments.back() << "\" follows a progress line";
    }
  }
  EXPECT_GT(progress, 0u) << raw;
  EXPECT_NE(raw.find("done in "), std::string::npos) << raw;
}

TEST(Cli, ShardsMergeIntoTheUnshardedRun) {
  // Every difference a finding but those of nondeterministic implementations, whose numbers no two runs share.
  const std::string args = "run --seed 11 --cases 60 --known " + nondeterministic_declarations_only() + " --quiet --out ";
  EXPECT_EQ(broadcheck(args + scratch("whole").string()).exit_code, 1);  // undeclared differences: findings
  std::string dirs;
  for (int i = 0; i < 3; ++i) {
    const fs::path d = scratch("shard" + std::to_string(i));
    EXPECT_EQ(broadcheck(args + d.string() + " --shard " + std::to_string(i) + "/3").exit_code, 1);
    dirs += " " + d.string();
  }
  CliRun merged = broadcheck("merge" + dirs + " --out " + scratch("merged").string());
  EXPECT_EQ(merged.exit_code, 1) << merged.output;
  EXPECT_EQ(slurp(scratch("merged") / "results.jsonl"), slurp(scratch("whole") / "results.jsonl"));
  EXPECT_EQ(summary_without_timing(scratch("merged")), summary_without_timing(scratch("whole")));
  EXPECT_EQ(report_without_timing(scratch("merged")), report_without_timing(scratch("whole")));  // looks the same
  EXPECT_LT(lines(scratch("shard0") / "results.jsonl").size(), lines(scratch("whole") / "results.jsonl").size());
}

TEST(Cli, GoogleTestShardVariablesPickTheShard) {
  const fs::path out = scratch("gtest-shard");
  const std::string cmd = "GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1 " + bc::test_binary_dir() +
                          "/broadcheck run --seed 2 --cases 10 --no-replay --quiet --out " + out.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(out / "summary.json"))["shard"], "1/2");
  for (const std::string& l : case_lines(out / "results.jsonl"))
    EXPECT_EQ(nlohmann::json::parse(l)["seq"].get<long>() % 2, 1) << l;
  EXPECT_EQ(broadcheck("run --shard 2/2 --out " + out.string()).exit_code, 2);
  EXPECT_EQ(broadcheck("run --shard one/2 --out " + out.string()).exit_code, 2);
}

TEST(Cli, SaveAppendsEachNewMinimalCaseOnce) {
  const fs::path corpus = scratch("saved.jsonl");
  fs::remove(corpus);
  const std::string args = "run --seed 1 --cases 100 --no-replay --no-known --quiet --save " + corpus.string() +
                           " --out " + scratch("save").string();
  EXPECT_EQ(broadcheck(args).exit_code, 1);
  const auto first = lines(corpus);
  EXPECT_GE(first.size(), 3u);
  EXPECT_EQ(broadcheck(args).exit_code, 1);
  EXPECT_EQ(lines(corpus), first) << "the second run found the same cases and added none";
  // The saved file is a corpus: it replays, and without declarations its cases still disagree.
  EXPECT_EQ(broadcheck("replay " + corpus.string() + " --no-known --out " + scratch("save-replay").string()).exit_code, 1);
}

TEST(Cli, ShrinkMinimisesAPastedCase) {
  const fs::path out = scratch("shrink.txt");
  const std::string cmd = bc::test_binary_dir() + "/broadcheck shrink --no-known --quiet --case "
                          "'{\"op\": \"add_\", \"shapes\": [[5, 1, 4, 3], [2, 5, 3, 4, 3]]}' > " + out.string();
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
  // Not [[], [1]]: with a 0-d self the documents' answer (no dimension, so no broadcasting) changes the signature.
  EXPECT_EQ(slurp(out), "{\"op\":\"add_\",\"shapes\":[[1],[2]]}\n");
  EXPECT_EQ(broadcheck("shrink --quiet --case '{\"op\": \"add\", \"shapes\": [[2], [3, 1]]}'").exit_code, 0);
  EXPECT_EQ(broadcheck("shrink --case '{\"op\": \"ad\", \"shapes\": []}'").exit_code, 2);
}

TEST(Cli, ReproduceTokenReplaysTheShrunkCase) {
  const fs::path out = scratch("repro");
  ASSERT_EQ(broadcheck("run --seed 1 --cases 100 --no-replay --no-known --quiet --property inplace_agree --out " +
                       out.string()).exit_code, 1);
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  const auto& finding = summary["findings"][0];
  const std::string token = finding["reproduce"];
  ASSERT_EQ(token.rfind("bc1/1/inplace_agree/", 0), 0u) << token;
  const fs::path again = scratch("repro-again");
  EXPECT_EQ(broadcheck("replay --no-known --quiet --reproduce " + token + " --out " + again.string()).exit_code, 1);
  const auto replayed = nlohmann::json::parse(lines(again / "results.jsonl").at(0));
  EXPECT_EQ(replayed["case"]["shapes"], finding["minimal"]["case"]["shapes"]);
  EXPECT_EQ(replayed["signature"].get<std::string>().substr(replayed["signature"].get<std::string>().find('|')),
            finding["signature"].get<std::string>().substr(finding["signature"].get<std::string>().find('|')));
}

// By default a run shrinks only new findings: a known one keeps its first raw case (and a reproduce token with no
// shrink path); --shrink all shrinks it too, --shrink none shrinks nothing. The cases run are the same either way.
TEST(Cli, KnownFindingsAreShrunkOnlyUnderShrinkAll) {
  const std::string args = "run --seed 1 --cases 100 --no-replay --quiet --property inplace_agree --results all ";
  const fs::path by_default = scratch("shrink-new"), all = scratch("shrink-all");
  ASSERT_EQ(broadcheck(args + "--out " + by_default.string()).exit_code, 0);
  ASSERT_EQ(broadcheck(args + "--shrink all --out " + all.string()).exit_code, 0);
  EXPECT_EQ(slurp(by_default / "results.jsonl"), slurp(all / "results.jsonl"));
  const auto unshrunk = nlohmann::json::parse(slurp(by_default / "summary.json"))["findings"];
  const auto shrunk = nlohmann::json::parse(slurp(all / "summary.json"))["findings"];
  ASSERT_EQ(unshrunk.size(), shrunk.size());
  ASSERT_FALSE(unshrunk.empty());
  // Their findings differ, so the two runs are not shards of one run.
  EXPECT_NE(summary_without_timing(by_default)["fingerprint"]["flags"],
            summary_without_timing(all)["fingerprint"]["flags"]);
  int steps = 0;
  for (size_t k = 0; k < unshrunk.size(); ++k) {
    ASSERT_EQ(unshrunk[k]["verdict"], "known");
    EXPECT_EQ(unshrunk[k]["key"], shrunk[k]["key"]);
    EXPECT_EQ(unshrunk[k]["hits"], shrunk[k]["hits"]);
    EXPECT_FALSE(unshrunk[k]["shrunk"].get<bool>());
    EXPECT_EQ(unshrunk[k]["shrink_steps"], 0);
    EXPECT_EQ(unshrunk[k]["minimal"]["case"], unshrunk[k]["original"]);
    const std::string token = unshrunk[k]["reproduce"];
    EXPECT_EQ(token.substr(token.size() - 2), "/-") << token;
    EXPECT_FALSE(unshrunk[k]["replay_command"].get<std::string>().empty());
    EXPECT_FALSE(unshrunk[k]["regression_draft"].get<std::string>().empty());
    EXPECT_TRUE(shrunk[k]["shrunk"].get<bool>());
    steps += shrunk[k]["shrink_steps"].get<int>();
  }
  EXPECT_GT(steps, 0) << "no known finding had anywhere to shrink to: the test proves nothing";
  EXPECT_NE(slurp(by_default / "report.html").find("this run did not shrink it"), std::string::npos);
  // An unshrunk finding's token regenerates its first raw case.
  const fs::path again = scratch("shrink-token");
  ASSERT_EQ(broadcheck("replay --quiet --reproduce " + unshrunk[0]["reproduce"].get<std::string>() + " --out " +
                       again.string()).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(lines(again / "results.jsonl").at(0))["case"]["shapes"],
            unshrunk[0]["original"]["shapes"]);

  // New findings are shrunk by default, and not under --shrink none.
  const std::string fresh = "run --seed 1 --cases 100 --no-replay --no-known --quiet --property inplace_agree ";
  const fs::path fresh_default = scratch("shrink-fresh"), fresh_none = scratch("shrink-none");
  ASSERT_EQ(broadcheck(fresh + "--out " + fresh_default.string()).exit_code, 1);
  ASSERT_EQ(broadcheck(fresh + "--shrink none --out " + fresh_none.string()).exit_code, 1);
  const auto fresh_shrunk = nlohmann::json::parse(slurp(fresh_default / "summary.json"))["findings"];
  const auto fresh_unshrunk = nlohmann::json::parse(slurp(fresh_none / "summary.json"))["findings"];
  ASSERT_EQ(fresh_shrunk.size(), fresh_unshrunk.size());
  steps = 0;
  for (size_t k = 0; k < fresh_shrunk.size(); ++k) {
    EXPECT_TRUE(fresh_shrunk[k]["shrunk"].get<bool>());
    EXPECT_FALSE(fresh_unshrunk[k]["shrunk"].get<bool>());
    steps += fresh_shrunk[k]["shrink_steps"].get<int>();
  }
  EXPECT_GT(steps, 0);
  EXPECT_EQ(broadcheck("run --shrink some --out " + scratch("shrink-bad").string()).exit_code, 2);
}

TEST(Cli, InterruptKeepsWhatWasFound) {
  const fs::path out = scratch("interrupt");
  const fs::path code = scratch("interrupt-code");
  const std::string cmd = "sh -c '" + bc::test_binary_dir() +
                          "/broadcheck run --seed 1 --time 60 --no-known --quiet --results all --out " + out.string() +
                          " & pid=$!; "
                          // wait until cases are being written (the handler is in place by then), then a bit more
                          "for i in $(seq 100); do [ -s " + (out / "results.jsonl").string() +
                          " ] && break; sleep 0.1; done; sleep 1; kill -INT $pid; wait $pid; echo $? > " +
                          code.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(slurp(code), "1\n") << "undeclared findings were made before the interrupt";
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_TRUE(summary["interrupted"].get<bool>());
  EXPECT_LT(summary["seconds"].get<double>(), 30.0);
  EXPECT_GT(summary["findings"].size(), 0u);
  EXPECT_GT(case_lines(out / "results.jsonl").size(), 100u);
  EXPECT_NE(slurp(out / "report.html").find("INTERRUPTED"), std::string::npos);
}

// An adapter that never answers (the test adapter hangs on a dim of 7) with four cases in its hands: the interrupt
// ends the wait at once, no adapter is started again to run those cases one by one, each with its own timeout, and
// the reports cover what ran.
TEST(Cli, AnInterruptEndsTheRunPromptlyWhileAnAdapterHangs) {
  const fs::path out = scratch("interrupt-hang"), log = scratch("interrupt-hang.log"), corpus = scratch("sevens.jsonl");
  std::ofstream(corpus) << "{\"op\": \"add\", \"shapes\": [[7], [1]]}\n{\"op\": \"add\", \"shapes\": [[7, 2], [2]]}\n"
                           "{\"op\": \"add\", \"shapes\": [[1, 7], [7]]}\n{\"op\": \"add\", \"shapes\": [[2, 7], [1]]}\n";
  const std::string hang =
      "hang=/usr/bin/python3 " + bc::test_source_dir() + "/tests/oracles/adapters/shape_adapter.py hang";
  const pid_t run = start_broadcheck({"replay", corpus.string(), "--no-config", "--oracle", hang, "--timeout-ms", "4000",
                                      "--quiet", "--out", out.string()},
                                     log);
  std::this_thread::sleep_for(std::chrono::seconds(3));  // LibTorch's worker starts, the adapter hangs
  ASSERT_EQ(::kill(run, SIGINT), 0);
  const auto t0 = std::chrono::steady_clock::now();
  exit_code_of(run);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 3.0) << slurp(log);
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_TRUE(summary["interrupted"].get<bool>());
  EXPECT_EQ(summary["signal"], 2);
  EXPECT_EQ(summary["statuses"].value("hang:timeout", 0), 0) << "a wait the interrupt cut short is no timeout";
}

TEST(Cli, TimeBudgetBoundsTheRun) {
  const fs::path out = scratch("time");
  ASSERT_EQ(broadcheck("run --seed 1 --time 1 --quiet --results all --out " + out.string()).exit_code, 0);
  const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
  EXPECT_LT(summary["seconds"].get<double>(), 10.0);
  // More than the corpus's 48 cases: without --cases, --time alone sets the budget (a loaded machine runs fewer).
  EXPECT_GT(case_lines(out / "results.jsonl").size(), 60u) << "without --cases, --time alone sets the budget";
}

TEST(Cli, AFolderWhereTheResultsMustGoIsBadInputNotAnInternalError) {
  // The environment, not broadcheck, is at fault (inputs_cli_test holds the internal-error path).
  const fs::path out = scratch("internal");
  fs::create_directories(out / "results.jsonl");  // a folder where the results file must go
  CliRun r = broadcheck("run --cases 1 --quiet --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find((out / "results.jsonl").string() + ": cannot move the output into place"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
}

TEST(Cli, ARealLibTorchCrashIsRecordedAndTheRunFinishes) {
  // INT64_MIN % -1 traps in LibTorch (SIGFPE); the isolated LibTorch oracle turns that into the case's outcome.
  const fs::path out = scratch("crash");
  CliRun r = broadcheck("replay " + bc::test_source_dir() + "/corpus/findings.jsonl --no-known --out " + out.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  int crash_cases = 0;  // findings.jsonl grows; its two INT64_MIN cases are the crashing ones
  for (const std::string& l : case_lines(out / "results.jsonl")) {
    const auto j = nlohmann::json::parse(l);
    if (j["case"]["id"].get<std::string>().rfind("finding-int64-min-", 0) != 0) continue;
    ++crash_cases;
    EXPECT_EQ(j["outcomes"]["torch"]["status"], "crash") << l;
    EXPECT_EQ(j["outcomes"]["torch"]["detail"], "SIGFPE") << l;
    EXPECT_EQ(j["outcomes"]["engine"]["values"][0], 0.0) << l;
  }
  EXPECT_EQ(crash_cases, 2);
  EXPECT_EQ(nlohmann::json::parse(slurp(out / "summary.json"))["statuses"]["torch:crash"], 2);
  EXPECT_NE(slurp(out / "report.html").find("SIGFPE"), std::string::npos);
  // Declared, the same crash is known and the run passes.
  EXPECT_EQ(broadcheck("replay " + bc::test_source_dir() + "/corpus/findings.jsonl --out " + out.string()).exit_code,
            0);
}

// `broadcheck list`: what the harness knows, as text and as JSON for scripts.
TEST(Cli, ListsOpsPropertiesKindsAndOracles) {
  CliRun ops = broadcheck("list ops --json");
  ASSERT_EQ(ops.exit_code, 0) << ops.output;
  const nlohmann::json j = nlohmann::json::parse(ops.output);
  // Every implementation that takes part has a cell for every op: engine, torch, xtensor, its four variants
  // (xtensor-noalias, -rank, -fixed, -lazy), documents, and the voters of broadcheck.json that started here.
  const CliRun taking_part = broadcheck("list oracles --json");
  ASSERT_EQ(taking_part.exit_code, 0) << taking_part.output;
  const size_t implementations = nlohmann::json::parse(taking_part.output).size();
  EXPECT_GE(implementations, 8u) << taking_part.output;
  bool hypot = false, dist = false;
  for (const auto& op : j) {
    ASSERT_TRUE(op.contains("support")) << op.dump();
    EXPECT_EQ(op["support"].size(), implementations) << op.dump();
    if (op["op"] == "hypot") hypot = op["support"]["xtensor"]["values"] == "run" && op["inplace"] == "hypot_";
    if (op["op"] == "dist") dist = op["family"] == "reduction" && op["support"]["torch"]["grads"] == "run";
  }
  EXPECT_TRUE(hypot && dist) << ops.output.substr(0, 2000);
  CliRun text = broadcheck("list ops");
  EXPECT_NE(text.output.find("- xtensor: xtensor has no lerp with PyTorch's meaning\n    ops: lerp\n"),
            std::string::npos) << text.output;
  // Within a terminal of 80 columns (issue 36: it was 283), with a line for every op.
  std::istringstream listed(text.output);
  std::string widest;
  for (std::string line; std::getline(listed, line);)
    if (line.size() > widest.size()) widest = line;
  EXPECT_LE(widest.size(), 80u) << widest;
  for (const auto& op : j) EXPECT_NE(text.output.find("\n" + op["op"].get<std::string>() + " "), std::string::npos);
  CliRun props = broadcheck("list properties --json");
  ASSERT_EQ(props.exit_code, 0);
  EXPECT_NE(props.output.find("\"grads_agree\""), std::string::npos);
  CliRun kinds = broadcheck("list kinds");
  EXPECT_NE(kinds.output.find("version_counter"), std::string::npos);
  CliRun oracles = broadcheck("list oracles");
  EXPECT_NE(oracles.output.find("LibTorch 1.13"), std::string::npos) << oracles.output;
  EXPECT_NE(oracles.output.find("engine     rule"), std::string::npos) << oracles.output;
  EXPECT_NE(oracles.output.find("torch      reference"), std::string::npos) << oracles.output;
  EXPECT_NE(oracles.output.find("documents  document"), std::string::npos) << oracles.output;
  EXPECT_GT(oracles.output.find("documents  document"), oracles.output.find("numpy")) << "the documents vote last";
  CliRun bad = broadcheck("list nonsense");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("valid: ops, properties, kinds, oracles"), std::string::npos);
}
