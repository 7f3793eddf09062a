// The command line as a user meets it: exit codes, output files, bad input, determinism.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

struct CliRun {
  int exit_code;
  std::string output;  // stdout and stderr together
};

fs::path scratch(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("broadcheck-cli-test-" + std::to_string(::getpid())) / name;
  fs::create_directories(p.parent_path());
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

CliRun broadcheck(const std::string& args) {
  const fs::path log = scratch("log.txt");
  const std::string cmd = std::string(BC_BINARY_DIR "/broadcheck ") + args + " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(log)};
}

std::vector<std::string> lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

const std::string kSeeds = BC_SOURCE_DIR "/corpus/seeds.jsonl";

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
  CliRun r = broadcheck("replay " + kSeeds + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto results = lines(out / "results.jsonl");
  EXPECT_EQ(results.size(), lines(kSeeds).size());
  for (const std::string& l : results) {
    EXPECT_NE(l.find("\"case\""), std::string::npos);
    EXPECT_NE(l.find("\"outcomes\":{\"engine\""), std::string::npos);
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

TEST(Cli, BadCorpusLinesAreNamedAndTheRestRuns) {
  const fs::path corpus = scratch("bad.jsonl");
  std::ofstream(corpus) << "{\"id\": \"fine\", \"op\": \"add\", \"shapes\": [[2, 1], [3]]}\n"
                        << "{\"op\": \"add\", \"shapes\": [[2, 1], [3]\n"
                        << "{\"op\": \"addd\", \"shapes\": [[2], [2]]}\n"
                        << "{\"op\": \"add\", \"shapes\": [[4096, 4096], [1]]}\n";
  const fs::path out = scratch("bad-out");
  CliRun r = broadcheck("replay " + corpus.string() + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find(corpus.string() + ":2: not valid JSON"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(corpus.string() + ":3: unknown op \"addd\"; valid ops: add, "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(corpus.string() + ":4: shapes[0] [4096, 4096] has"), std::string::npos) << r.output;
  EXPECT_EQ(lines(out / "results.jsonl").size(), 1u) << "the good line still ran";
  EXPECT_NE(slurp(out / "report.html").find(":3: unknown op"), std::string::npos) << "the report lists input errors";
}

TEST(Cli, SameSeedSameResults) {
  const std::string args = "run --seed 3 --cases 40 --no-replay --quiet --out ";
  ASSERT_EQ(broadcheck(args + scratch("det-a").string()).exit_code, 0);
  ASSERT_EQ(broadcheck(args + scratch("det-b").string()).exit_code, 0);
  const std::string a = slurp(scratch("det-a") / "results.jsonl");
  EXPECT_GT(lines(scratch("det-a") / "results.jsonl").size(), 40u * 6);
  EXPECT_EQ(a, slurp(scratch("det-b") / "results.jsonl"));
  ASSERT_EQ(broadcheck("run --seed 4 --cases 40 --no-replay --quiet --out " + scratch("det-c").string()).exit_code, 0);
  EXPECT_NE(a, slurp(scratch("det-c") / "results.jsonl")) << "another seed gives other cases";
}
