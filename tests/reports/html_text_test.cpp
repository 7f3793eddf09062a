// Escaping and the copyable block (a <pre> with a copy button the page's script drives).
#include "reports/html_text.h"

#include <gtest/gtest.h>

#include "html_samples.h"

namespace bc {
namespace {

TEST(HtmlEscape, EscapesTheFiveSpecialCharactersAndNul) {
  EXPECT_EQ(html_escape(testing::kEvilMessage), "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;");
  EXPECT_EQ(html_escape("plain [2, 3]"), "plain [2, 3]");
  EXPECT_EQ(html_escape(std::string("a\0b", 3)), "a\xEF\xBF\xBD" "b");
}

TEST(CopyableHtml, ButtonNamesThePreItCopies) {
  const std::string html = copyable_html("finding-3-draft", "Draft:", "x < y && \"z\"");
  EXPECT_NE(html.find("<button type=\"button\" class=\"copy\" data-copy=\"finding-3-draft\" hidden>Copy</button>"),
            std::string::npos);
  EXPECT_NE(html.find("<pre id=\"finding-3-draft\">x &lt; y &amp;&amp; &quot;z&quot;</pre>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"copy-status\" role=\"status\"></span>"), std::string::npos);
  EXPECT_NE(html.find("Draft:"), std::string::npos);
}

TEST(CopyableHtml, LabelIsEscaped) {
  const std::string html = copyable_html("a", "<i>label</i>", "");
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_NE(html.find("&lt;i&gt;label&lt;/i&gt;"), std::string::npos);
}

TEST(HtmlEscape, BytesThatAreNotUtf8ShowAsEscapes) {
  EXPECT_EQ(html_escape("a\xFF<b"), "a\\xFF&lt;b");
  EXPECT_EQ(html_escape("\xC3\xA9"), "\xC3\xA9");  // valid UTF-8 stays as it is
}

TEST(ReferenceHtml, LinksOnlyWebAddresses) {
  EXPECT_EQ(reference_html("https://example.org/?a=1&b=2"),
            "<a href=\"https://example.org/?a=1&amp;b=2\">https://example.org/?a=1&amp;b=2</a>");
  EXPECT_EQ(reference_html("javascript:alert(1)"), "javascript:alert(1)");
  EXPECT_EQ(reference_html("docs/notes/<x>.md"), "docs/notes/&lt;x&gt;.md");
}

}  // namespace
}  // namespace bc
