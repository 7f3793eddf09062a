// summary.md: the verdict in words, the counts, each new finding with its minimal case and how to replay it, stale
// declarations, input errors, the report's path; run texts kept out of Markdown's reach; long lists cut.
#include "reports/markdown_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace bc {
namespace {

Finding fresh(const std::string& signature) {
  Finding f;
  f.signature = signature;
  f.property = "inplace_agree";
  f.verdict = Verdict::discrepancy;
  f.hits = 7;
  f.minimal.c.op = Op::add_;
  f.minimal.c.shapes = {{1}, {3}};
  f.minimal.judgement.attribution = "xtensor is the odd one out";
  f.replay_command = "build/broadcheck replay --case '{\"op\":\"add_\",\"shapes\":[[1],[3]]}'";
  f.reproduce = "bc1/1/inplace_agree/4/0.1";
  f.reproduce_command = "/opt/broadcheck replay --out broadcheck-finding-1 --reproduce bc1/1/inplace_agree/4/0.1";
  return f;
}

RunSummary failed_run() {
  RunSummary s;
  s.arguments = {"broadcheck", "run", "--seed", "1"};
  s.seed = 1;
  s.seconds = 2.25;
  s.verdicts = {{"agree", 90}, {"discrepancy", 7}, {"known", 3}};
  s.findings = {fresh("inplace_agree | inplace | status | odd: xtensor | a`b"), fresh("second")};
  Finding known = fresh("declared one");
  known.verdict = Verdict::known;
  s.findings.push_back(known);
  DeclarationUse stale;
  stale.declaration.id = "xt-old";
  stale.covered = 4;
  s.declarations = {stale};
  s.exit_code = 1;
  return s;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Each implementation's totals over its op families, then (folded) each implementation x family, as counted.
TEST(MarkdownSummary, ShowsTheScoreboardPerImplementationAndFamily) {
  RunSummary s = failed_run();
  EXPECT_FALSE(has(markdown_summary(s, "r.html"), "Scoreboard")) << "no table without a scoreboard";
  s.scoreboard["tfjs-cpu"]["elementwise"] = Score{40, 30, 6, 4, 9};
  s.scoreboard["tfjs-cpu"]["matmul"] = Score{10, 10, 0, 0, 2};
  s.scoreboard["engine"]["matmul"] = Score{12, 12, 0, 0, 0};
  const std::string md = markdown_summary(s, "r.html");
  EXPECT_TRUE(has(md, "### Scoreboard (cases per implementation)\n\n"
                      "| implementation | run | agree | known | new | unsupported |\n"
                      "| --- | ---: | ---: | ---: | ---: | ---: |\n"
                      "| `engine` | 12 | 12 | 0 | 0 | 0 |\n"
                      "| `tfjs-cpu` | 50 | 40 | 6 | 4 | 11 |\n\n<details><summary>per op family</summary>\n\n"))
      << md;
  EXPECT_TRUE(has(md, "| `engine` | `matmul` | 12 | 12 | 0 | 0 | 0 |\n"
                      "| `tfjs-cpu` | `elementwise` | 40 | 30 | 6 | 4 | 9 |\n"
                      "| `tfjs-cpu` | `matmul` | 10 | 10 | 0 | 0 | 2 |\n\n</details>\n"))
      << md;
  EXPECT_LT(md.find("Scoreboard"), md.find("Full report")) << md;
}

TEST(MarkdownSummary, AFailedRunListsWhatToLookAt) {
  const std::string md = markdown_summary(failed_run(), "out/report.html");
  EXPECT_EQ(md.rfind("## broadcheck: FAILED: 2 new finding(s) — ", 0), 0u) << md;
  EXPECT_EQ(md.substr(0, md.find('\n')).find("·"), std::string::npos) << "one verdict: " << md;
  EXPECT_TRUE(has(md, "`broadcheck run --seed 1` · seed 1 · 100 case(s) in 2.2 s · exit code 1\n")) << md;
  EXPECT_TRUE(has(md, "| discrepancy | 7 |\n")) << md;
  EXPECT_TRUE(has(md,
                  "### New findings (2)\n\n1. ``inplace_agree | inplace | status | odd: xtensor | a`b`` "
                  "(discrepancy, 7 hit(s))\n   - minimal case: `add_([1], [3])`\n"))
      << md;
  EXPECT_TRUE(has(md, "   - replay: `build/broadcheck replay --case '{\"op\":\"add_\",\"shapes\":[[1],[3]]}'`\n"))
      << md;
  EXPECT_TRUE(has(md, "   - reproduce: `/opt/broadcheck replay --out broadcheck-finding-1 --reproduce "
                      "bc1/1/inplace_agree/4/0.1`\n"))
      << md;
  EXPECT_TRUE(has(md, "2. `second`")) << md;
  EXPECT_FALSE(has(md, "declared one")) << "known divergences are counted, not listed";
  EXPECT_TRUE(has(md, "Known divergences: 1 signature(s)")) << md;
  EXPECT_TRUE(has(md, "### Stale declarations\n\n- `xt-old`: covered 4 case(s), explained none")) << md;
  EXPECT_FALSE(has(md, "Input errors"));
  const std::string last = "\nFull report: `out/report.html`\n";
  EXPECT_EQ(md.substr(md.size() - std::min(md.size(), last.size())), last) << md;
}

TEST(MarkdownSummary, PassedInterruptedAndBadInputRunsSaySo) {
  RunSummary s;
  s.verdicts = {{"agree", 5}};
  EXPECT_EQ(markdown_summary(s, "r.html").rfind("## broadcheck: PASSED: nothing new disagrees in 5 case(s)\n", 0), 0u);
  s.interrupted = true;
  s.signal = 15;
  const std::string interrupted = markdown_summary(s, "r.html");
  EXPECT_EQ(interrupted.rfind("## broadcheck: INTERRUPTED", 0), 0u) << interrupted;
  EXPECT_TRUE(has(interrupted, "interrupted by signal 15")) << interrupted;
  s.input_errors = {"corpus/a.jsonl:2: unknown op \"x\" `y`"};
  s.exit_code = 2;
  const std::string bad = markdown_summary(s, "r.html");
  EXPECT_EQ(bad.rfind("## broadcheck: INPUT ERRORS", 0), 0u) << bad;
  EXPECT_TRUE(has(bad, "### Input errors (1)\n\n- `` corpus/a.jsonl:2: unknown op \"x\" `y` ``\n")) << bad;
}

// The words /bin/sh makes of `command_line`, each on a line of its own in brackets.
std::string shell_split(const std::string& command_line) {
  FILE* shell = ::popen(("printf '[%s]\\n' " + command_line + " 2>&1").c_str(), "r");
  std::string out;
  for (char buf[4096]; shell && std::fgets(buf, sizeof buf, shell);) out += buf;
  if (shell) ::pclose(shell);
  return out;
}

// The header's command line is shell-quoted: /bin/sh splits it back into the arguments, quotes and spaces and all.
TEST(MarkdownSummary, TheCommandLineIsShellQuoted) {
  RunSummary s = failed_run();
  s.arguments = {"/opt/my build/broadcheck", "run", "--oracle", "mine=python3 it's.py \"$HOME\"", "--out", "", "x;y"};
  const std::string md = markdown_summary(s, "r.html");
  const size_t start = md.find("\n\n`") + 3, end = md.find("` · seed");
  ASSERT_LT(start, end) << md;
  std::string want;
  for (const std::string& a : s.arguments) want += "[" + a + "]\n";
  EXPECT_EQ(shell_split(md.substr(start, end - start)), want) << md;
}

// An adapter's own command is listed with the finding.
TEST(MarkdownSummary, AnAdapterFindingListsTheAdapterCommand) {
  RunSummary s = failed_run();
  s.findings[0].adapter_commands["mine"] = "printf '%s\\n' '{}' | (cd /x && ./mine)";
  const std::string md = markdown_summary(s, "r.html");
  EXPECT_TRUE(has(md, "   - `mine` adapter alone: `printf '%s\\n' '{}' | (cd /x && ./mine)`\n")) << md;
}

TEST(MarkdownSummary, ListsAtMostFiftyNewFindings) {
  RunSummary s = failed_run();
  s.findings.clear();
  for (int i = 0; i < 60; ++i) s.findings.push_back(fresh("sig " + std::to_string(i)));
  const std::string md = markdown_summary(s, "r.html");
  EXPECT_TRUE(has(md, "50. `sig 49`")) << md;
  EXPECT_FALSE(has(md, "`sig 50`")) << md;
  EXPECT_TRUE(has(md, "... and 10 more in report.html")) << md;
}

// Input errors outrank new findings in the exit code (2), and the heading still shows the findings after them.
TEST(MarkdownSummary, InputErrorsDoNotHideNewFindings) {
  RunSummary s = failed_run();
  s.input_errors = {"corpus/a.jsonl:2: unknown op"};
  s.exit_code = 2;
  const std::string md = markdown_summary(s, "r.html");
  const std::string heading = md.substr(0, md.find('\n'));
  const size_t input = heading.find("INPUT ERRORS"), failed = heading.find("FAILED: 2 new finding(s)");
  EXPECT_EQ(input, std::string("## broadcheck: ").size()) << heading;
  EXPECT_NE(failed, std::string::npos) << heading;
  EXPECT_GT(failed, input) << heading;
}

TEST(MarkdownSummary, WritesTheFileAndAppendsToTheStepSummary) {
  const std::string dir = ::testing::TempDir();
  const std::string step = dir + "/step-summary.md";
  std::ofstream(step) << "earlier step\n";
  write_markdown_summary(failed_run(), dir, dir + "/report.html");
  const std::string md = markdown_summary(failed_run(), dir + "/report.html");
  EXPECT_EQ(append_step_summary(md, step), "");
  std::stringstream written, appended;
  written << std::ifstream(dir + "/summary.md").rdbuf();
  appended << std::ifstream(step).rdbuf();
  EXPECT_EQ(written.str(), md);
  EXPECT_EQ(appended.str(), "earlier step\n" + md + "\n");
  // A step summary that cannot be written is a warning naming it, not an exception that would fail the run.
  const std::string unwritable = "/nonexistent-dir-for-broadcheck/step.md";
  const std::string warning = append_step_summary(md, unwritable);
  EXPECT_EQ(warning.rfind(unwritable + ": ", 0), 0u) << warning;
  EXPECT_THROW(write_markdown_summary(failed_run(), "/nonexistent-dir-for-broadcheck", "r.html"), std::runtime_error);
}

}  // namespace
}  // namespace bc
