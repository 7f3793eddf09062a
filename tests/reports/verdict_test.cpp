// The verdict line: it agrees with the exit code, and PASSED is never said of a run that checked nothing.
#include "reports/verdict.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

RunSummary with_cases(long agree) {
  RunSummary s;
  if (agree > 0) s.verdicts["agree"] = agree;
  return s;
}

TEST(Verdict, PassedNamesHowManyCasesRan) {
  RunSummary s = with_cases(12);
  EXPECT_EQ(verdict_text(s), "PASSED: nothing new disagrees in 12 case(s)");
  EXPECT_TRUE(verdict_passed(s));
}

TEST(Verdict, ARunThatCheckedNothingNeverPasses) {
  RunSummary s = with_cases(0);
  EXPECT_TRUE(starts_with(verdict_text(s), "NOTHING CHECKED")) << verdict_text(s);
  EXPECT_FALSE(verdict_passed(s));
  s.input_errors = {"nothing was checked"};
  s.exit_code = 2;
  EXPECT_EQ(verdict_text(s), "NOTHING CHECKED: no case ran, so nothing can have passed (1 input error(s))");
}

TEST(Verdict, FollowsTheExitCode) {
  RunSummary s = with_cases(5);
  s.exit_code = 2;
  s.input_errors = {"f:1: bad", "f:2: bad"};
  EXPECT_EQ(verdict_text(s), "INPUT ERRORS: 2 input error(s); the inputs that could be used ran");
  s.exit_code = 3;
  s.internal_error = "boom";
  EXPECT_TRUE(starts_with(verdict_text(s), "INTERNAL ERROR: broadcheck itself failed: boom · ")) << verdict_text(s);
  s = with_cases(5);
  s.interrupted = true;
  s.exit_code = 130;
  EXPECT_TRUE(starts_with(verdict_text(s), "INTERRUPTED")) << verdict_text(s);
  EXPECT_FALSE(verdict_passed(s));
}

// Exit code 2 (input errors) outranks 1 (new findings), but the line still tells the news: every verdict that
// holds, worst first, the first one the exit code's.
TEST(Verdict, AWorseVerdictDoesNotHideTheOthers) {
  RunSummary s = with_cases(5);
  Finding f;
  f.verdict = Verdict::discrepancy;
  s.findings = {f, f};
  s.input_errors = {"f:1: bad"};
  s.exit_code = 2;
  const std::string line = verdict_text(s);
  EXPECT_TRUE(starts_with(line, "INPUT ERRORS: 1 input error(s)")) << line;
  EXPECT_NE(line.find(" · FAILED: 2 new finding(s)"), std::string::npos) << line;
  s.internal_error = "boom";
  s.exit_code = 3;
  s.interrupted = true;
  const std::string all = verdict_text(s);
  EXPECT_TRUE(starts_with(all, "INTERNAL ERROR: broadcheck itself failed: boom · INPUT ERRORS")) << all;
  EXPECT_LT(all.find("FAILED"), all.find("INTERRUPTED: the run did not finish")) << all;
  EXPECT_FALSE(verdict_passed(s));
}

}  // namespace
}  // namespace bc
