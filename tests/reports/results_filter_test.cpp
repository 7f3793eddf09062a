// Which cases get a line in results.jsonl: all of them, or those that do not agree with at most kPerSignature per
// property, signature and verdict (corpus cases all).
#include "reports/results_filter.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace bc {
namespace {

long kept(ResultsFilter& f, const std::string& property, const std::string& signature, const std::string& verdict,
          long times) {
  long n = 0;
  for (long i = 0; i < times; ++i) n += f.keep(property, signature, verdict);
  return n;
}

TEST(ResultsFilter, AllKeepsEveryCase) {
  ResultsFilter f(ResultsMode::all);
  EXPECT_EQ(kept(f, "p", "", "agree", 500), 500);
  EXPECT_EQ(kept(f, "p", "s", "known", 500), 500);
}

TEST(ResultsFilter, FindingsKeepsTheFirstCasesOfEachSignatureAndVerdict) {
  const long cap = ResultsFilter::kPerSignature;
  ResultsFilter f(ResultsMode::findings);
  EXPECT_EQ(kept(f, "p", "", "agree", 500), 0);
  EXPECT_EQ(kept(f, "p", "s", "known", cap - 1), cap - 1);
  EXPECT_TRUE(f.keep("p", "s", "known"));
  EXPECT_FALSE(f.keep("p", "s", "known")) << "the first " << cap << " only";
  EXPECT_EQ(kept(f, "p", "s", "discrepancy", cap + 10), cap) << "another verdict counts apart";
  EXPECT_EQ(kept(f, "p", "t", "known", cap + 10), cap) << "another signature counts apart";
  EXPECT_EQ(kept(f, "q", "s", "known", cap + 10), cap) << "another property counts apart";
  EXPECT_EQ(kept(f, "corpus", "s", "expect_failed", 3 * cap), 3 * cap) << "corpus cases are all kept";
}

TEST(ResultsFilter, ModeNames) {
  EXPECT_EQ(results_mode_from_string(to_string(ResultsMode::all)), ResultsMode::all);
  EXPECT_EQ(results_mode_from_string(to_string(ResultsMode::findings)), ResultsMode::findings);
  EXPECT_THROW(results_mode_from_string("some"), std::invalid_argument);
}

}  // namespace
}  // namespace bc
