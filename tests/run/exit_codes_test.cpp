// The exit code of a summary: an internal error, then input errors, then new findings, then the signal.
#include "run/exit_codes.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

Finding finding(const std::string& key, Verdict verdict) {
  Finding f;
  f.key = f.signature = key;
  f.verdict = verdict;
  f.minimal.judgement.verdict = verdict;
  return f;
}

}  // namespace

TEST(ExitCodeFor, InputErrorsThenFindingsThenSignal) {
  RunSummary s;
  EXPECT_EQ(exit_code_for(s, 0), kExitOk);
  s.findings = {finding("k", Verdict::known)};
  EXPECT_EQ(exit_code_for(s, 0), kExitOk);
  EXPECT_EQ(exit_code_for(s, 2), 130);
  EXPECT_EQ(exit_code_for(s, 15), 143);
  s.findings.push_back(finding("n", Verdict::discrepancy));
  EXPECT_EQ(exit_code_for(s, 0), 1);
  EXPECT_EQ(exit_code_for(s, 2), 1);
  s.input_errors = {"corpus/a.jsonl:1: bad"};
  EXPECT_EQ(exit_code_for(s, 0), 2);
  EXPECT_EQ(exit_code_for(s, 2), 2);
  s.findings.clear();
  EXPECT_EQ(exit_code_for(s, 0), 2);
  EXPECT_EQ(kExitOk, 0);
  EXPECT_EQ(kExitFindings, 1);
  EXPECT_EQ(kExitBadInput, 2);
}

TEST(ExitCodeFor, AnInternalErrorComesFirst) {
  RunSummary s;
  s.input_errors = {"corpus/a.jsonl:1: bad"};
  s.findings = {finding("n", Verdict::discrepancy)};
  s.internal_error = "planted";
  EXPECT_EQ(exit_code_for(s, 2), kExitInternal);
  EXPECT_EQ(kExitInternal, 3);
}

}  // namespace bc
