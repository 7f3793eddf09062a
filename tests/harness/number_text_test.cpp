// Strict numbers: the digits of a number in range and nothing else.
#include "harness/number_text.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

TEST(NumberText, Uint64TakesTheWholeRangeAndNothingElse) {
  EXPECT_EQ(parse_uint64("0"), 0u);
  EXPECT_EQ(parse_uint64("18446744073709551615"), 18446744073709551615ull);
  for (const char* bad : {"", "18446744073709551616", "99999999999999999999999", "-1", "+1", " 1", "1 ", "1x",
                          "0x10", "1e3", "nan"})
    EXPECT_FALSE(parse_uint64(bad).has_value()) << bad;
}

TEST(NumberText, CountsAreWholeAndNotNegative) {
  EXPECT_EQ(parse_count("0"), 0);
  EXPECT_EQ(parse_count("200"), 200);
  for (const char* bad : {"", "-3", "2.5", "9223372036854775808", "12abc", "many"})
    EXPECT_FALSE(parse_count(bad).has_value()) << bad;
}

TEST(NumberText, SecondsAreFiniteAndAboveZero) {
  EXPECT_EQ(parse_positive_seconds("2.5"), 2.5);
  EXPECT_EQ(parse_positive_seconds("300"), 300.0);
  EXPECT_EQ(parse_positive_seconds(".5"), 0.5);
  EXPECT_EQ(parse_positive_seconds("1e2"), 100.0);
  for (const char* bad : {"", "0", "0.0", "-1", "nan", "NaN", "inf", "infinity", "1e400", "5s", " 5", "+5", "0x10"})
    EXPECT_FALSE(parse_positive_seconds(bad).has_value()) << bad;
}

}  // namespace
}  // namespace bc
