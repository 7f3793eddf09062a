// Element counts with overflow checks: exact below 2^63, "more than 9223372036854775807" above, never wrapped.
#include "harness/element_count.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

TEST(ElementCount, ExactWhileItFits) {
  EXPECT_EQ(to_string(count_elements({1024, 1024})), "1048576");
  EXPECT_EQ(to_string(count_elements({})), "1");
  EXPECT_EQ(to_string(count_elements({3, -1, 4})), "12") << "expand's -1 counts as 1";
  EXPECT_EQ(to_string(count_elements({3037000499, 3037000499})), "9223372030926249001");
}

TEST(ElementCount, SaturatesInsteadOfWrapping) {
  const ElementCount n = count_elements({4294967296, 4294967296});  // 2^64
  EXPECT_TRUE(n.overflow);
  EXPECT_EQ(to_string(n), "more than 9223372036854775807");
  EXPECT_TRUE(exceeds(n, 1));
  EXPECT_EQ(to_string(times(n, 0)), "0") << "an empty dim empties any count";
  EXPECT_EQ(to_string(count_elements({0, 4294967296, 4294967296, 4294967296})), "0");
  EXPECT_EQ(to_string(plus(ElementCount{9223372036854775807, false}, ElementCount{1, false})),
            "more than 9223372036854775807");
}

TEST(ElementCount, BroadcastTakesTheWidestSizeAtEachPosition) {
  EXPECT_EQ(to_string(broadcast_count({{1, 4096}, {4096, 1}})), "16777216");
  EXPECT_EQ(to_string(broadcast_count({{5, 0}, {1, 7}})), "0");
  EXPECT_EQ(to_string(broadcast_count({})), "1");
  EXPECT_TRUE(broadcast_count({{1048576, 1, 1, 1}, {1048576, 1, 1}, {1048576, 1}, {1048576}}).overflow);
}

}  // namespace
}  // namespace bc
