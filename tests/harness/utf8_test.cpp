// Valid UTF-8 out of any bytes: valid text unchanged, every invalid byte visible as \xNN.
#include "harness/utf8.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

TEST(Utf8, ValidTextIsUnchanged) {
  for (const std::string& text : std::vector<std::string>{std::string(""), std::string("plain"), std::string("\xC3\xA9t\xC3\xA9"),
                                 std::string("\xE2\x82\xAC \xF0\x9F\x98\x80")}) {
    EXPECT_EQ(visible_utf8(text), text);
    EXPECT_FALSE(first_invalid_utf8(text).has_value()) << text;
  }
}

TEST(Utf8, InvalidBytesBecomeVisibleEscapes) {
  EXPECT_EQ(visible_utf8("a\xFF" "b"), "a\\xFFb");
  EXPECT_EQ(first_invalid_utf8("a\xFF" "b"), 1u);
  EXPECT_EQ(visible_utf8("\x80"), "\\x80");                       // a stray continuation byte
  EXPECT_EQ(visible_utf8("x\xC3"), "x\\xC3");                     // a truncated sequence
  EXPECT_EQ(visible_utf8("\xC0\xAF"), "\\xC0\\xAF");              // an overlong '/'
  EXPECT_EQ(visible_utf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");     // a UTF-16 surrogate
  EXPECT_EQ(visible_utf8("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(visible_utf8("\xC3\xA9\xFE\xC3\xA9"), "\xC3\xA9\\xFE\xC3\xA9");  // good neighbours kept
}

TEST(Utf8, TheResultIsAlwaysValid) {
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte += static_cast<char>(b);
  EXPECT_FALSE(first_invalid_utf8(visible_utf8(every_byte)).has_value());
}

}  // namespace
}  // namespace bc
