// junit.xml of real runs against the JUnit schema (tests/reports/junit.xsd, with xmllint from libxml2-utils): a
// replay with new findings and refused corpus lines, a run with known divergences and stale declarations; and the
// test case names of two runs of different lengths staying the same for the signatures both found.
#include <gtest/gtest.h>

#include <fstream>

#include <set>
#include <string>

#include "cli_util.h"

namespace {

// "" when xmllint accepts the file against the schema, else what it said.
std::string schema_problems(const fs::path& xml) {
  const fs::path log = scratch("xmllint.log");
  const std::string cmd = "xmllint --noout --schema " + bc::test_source_dir() + "/tests/reports/junit.xsd " +
                          xml.string() + " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "xmllint is missing: install libxml2-utils";
  return status == 0 ? "" : slurp(log);
}

std::set<std::string> testcase_names(const fs::path& xml) {
  const std::string text = slurp(xml);
  std::set<std::string> out;
  for (size_t at = text.find("<testcase name=\""); at != std::string::npos; at = text.find("<testcase name=\"", at + 1))
    out.insert(text.substr(at + 16, text.find('"', at + 16) - at - 16));
  return out;
}

}  // namespace

TEST(JunitCli, ARunWithFindingsAndInputErrorsValidates) {
  const fs::path corpus = scratch("junit-bad.jsonl");
  std::ofstream(corpus) << "{\"op\": \"add_\", \"shapes\": [[1], [3]]}\n{\"op\": \"addd\", \"shapes\": [[2], [2]]}\n";
  const fs::path out = scratch("junit-findings");
  ASSERT_EQ(broadcheck("replay " + corpus.string() + " " + bc::test_source_dir() +
                       "/corpus/seeds.jsonl --no-known -q --out " + out.string())
                .exit_code,
            2);
  const std::string xml = slurp(out / "junit.xml");
  EXPECT_NE(xml.find("<failure message=\""), std::string::npos) << "undeclared differences fail";
  EXPECT_NE(xml.find("type=\"input_error\""), std::string::npos) << "the refused line is an error";
  EXPECT_EQ(schema_problems(out / "junit.xml"), "");
}

TEST(JunitCli, ARunWithKnownDivergencesAndStaleDeclarationsValidates) {
  const fs::path out = scratch("junit-known");
  // The corpus' own declarations, none stale (each has its own corpus case), and one that covers every add but
  // explains nothing: stale.
  const fs::path known = scratch("junit-known-declarations") / "known_divergences.jsonl";
  fs::create_directories(known.parent_path());
  std::ofstream(known) << slurp(fs::path(bc::test_source_dir()) / "corpus" / "known_divergences.jsonl")
                       << R"({"id": "torch-never", "oracle": "torch", "ops": ["add"], "expected": {"status": "ok"}, )"
                       << R"("actual": {"error": "broadcast"}, "reason": "matches nothing", "reference": "junit_cli_test"})"
                       << "\n";
  ASSERT_EQ(broadcheck("run --seed 1 --cases 20 -q --known " + known.string() + " --out " + out.string()).exit_code, 0);
  const std::string xml = slurp(out / "junit.xml");
  EXPECT_NE(xml.find("<skipped message=\"stale: "), std::string::npos);
  EXPECT_NE(xml.find("torch-never"), std::string::npos);
  EXPECT_NE(xml.find("<testsuites name=\"broadcheck\" tests=\""), std::string::npos);
  // torch-never is stale, and at most one more: tfjs-wasm-where-mixed-branches-fault, a fault that no case shows
  // every time (tests/cli/declarations_replay_test.cpp kWithoutOwnCase).
  size_t stale = 0;
  for (size_t at = xml.find("<skipped message=\"stale: "); at != std::string::npos;
       at = xml.find("<skipped message=\"stale: ", at + 1))
    ++stale;
  EXPECT_GE(stale, 1u);
  EXPECT_LE(stale, 2u) << "only torch-never (and the wasm fault) are stale";
  EXPECT_NE(xml.find("skipped=\"" + std::to_string(stale) + "\""), std::string::npos) << "the suite counts them";
  EXPECT_NE(xml.find("known divergence "), std::string::npos);
  EXPECT_EQ(schema_problems(out / "junit.xml"), "");
}

TEST(JunitCli, TestCaseNamesStayWhenARunGrows) {
  const std::string args = "run --seed 3 --no-replay --no-known -q --property inplace_agree --cases ";
  ASSERT_EQ(broadcheck(args + "40 --out " + scratch("junit-40").string()).exit_code, 1);
  ASSERT_EQ(broadcheck(args + "120 --out " + scratch("junit-120").string()).exit_code, 1);
  const std::set<std::string> small = testcase_names(scratch("junit-40") / "junit.xml");
  const std::set<std::string> large = testcase_names(scratch("junit-120") / "junit.xml");
  ASSERT_GT(small.size(), 3u);
  for (const std::string& name : small) EXPECT_TRUE(large.count(name)) << name << " is gone from the longer run";
}
