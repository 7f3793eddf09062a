// The console's progress line: cut to the terminal's width by characters, never inside a UTF-8 sequence; the width
// from COLUMNS first.
#include "harness/console.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace bc {
namespace {

TEST(Console, ALineIsCutBelowTheWidthSoItNeverWraps) {
  EXPECT_EQ(fit_to_columns("corpus: 12 cases", 80), "corpus: 12 cases");
  EXPECT_EQ(fit_to_columns("abcdef", 6), "abcde");
  EXPECT_EQ(fit_to_columns("abcdef", 7), "abcdef");
  EXPECT_EQ(fit_to_columns("abcdef", 1), "");
  // "é" is two bytes and one column: four characters fit in five columns.
  EXPECT_EQ(fit_to_columns("\xC3\xA9t\xC3\xA9s!", 5), "\xC3\xA9t\xC3\xA9s");
  EXPECT_EQ(fit_to_columns("\xC3\xA9t\xC3\xA9s!", 3), "\xC3\xA9t");
}

TEST(Console, ColumnsComeFromTheEnvironmentFirst) {
  const char* before = std::getenv("COLUMNS");
  const std::string saved = before ? before : "";
  ::setenv("COLUMNS", "60", 1);
  EXPECT_EQ(console_columns(), 60);
  ::setenv("COLUMNS", "wide", 1);  // not a number: the terminal's own width, or 80 without one
  EXPECT_GT(console_columns(), 0);
  if (before) ::setenv("COLUMNS", saved.c_str(), 1);
  else ::unsetenv("COLUMNS");
}

}  // namespace
}  // namespace bc
