// One finding's block: the summary line in words, the outcomes side by side with the odd one out, a known
// divergence's declaration, the copy buttons of the replay and reproduce commands and the regression draft, and
// the tokens the page's filter selects by.
#include "reports/finding_html.h"

#include <gtest/gtest.h>

#include "html_samples.h"

namespace bc {
namespace {

using testing::count;
using testing::known_finding;
using testing::new_finding;
using testing::sample_summary;

TEST(FindingHtml, SummaryLineSaysWhatHappenedInWords) {
  const std::string html = finding_html(sample_summary(), new_finding(), 0);
  const std::string summary = html.substr(html.find("<summary>"), html.find("</summary>") - html.find("<summary>"));
  EXPECT_NE(summary.find(">NEW</span> discrepancy"), std::string::npos);
  EXPECT_NE(summary.find("<code>add([2, 1, 3], [4, 3])</code>"), std::string::npos);
  EXPECT_NE(summary.find("odd one out: torch"), std::string::npos);
  EXPECT_NE(summary.find("17 hit(s)"), std::string::npos);
  EXPECT_EQ(html.rfind("<details class=\"finding new\" id=\"finding-1\"", 0), 0u);
}

TEST(FindingHtml, OutcomesSideBySideWithTheOddOneOut) {
  const std::string html = finding_html(sample_summary(), new_finding(), 0);
  EXPECT_NE(html.find("<th class=\"odd\">torch<br><strong>odd one out</strong></th>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"differs\"><th>status <strong>≠ first difference</strong></th>"),
            std::string::npos);
  EXPECT_NE(html.find("<pre>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</pre>"),
            std::string::npos);
  EXPECT_NE(html.find("add([7, 2, 1, 3], [9, 1, 4, 3])"), std::string::npos);  // the original case
  EXPECT_NE(html.find("<table class=\"shapes\">"), std::string::npos);
}

TEST(FindingHtml, ValuesAreShownShortened) {
  Finding f = new_finding();
  f.minimal.outcomes[0].second.values = {1, 2.5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  f.minimal.judgement.difference = "values";
  const std::string html = finding_html(sample_summary(), f, 0);
  EXPECT_NE(html.find("<code>[1, 2.5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, …] (14 elements)</code>"), std::string::npos);
  EXPECT_NE(html.find("<th>values <strong>≠ first difference</strong>"), std::string::npos);
}

TEST(FindingHtml, GradientsHaveARowPerOperand) {
  Finding f = new_finding();
  f.minimal.c.requires_grad = {false, true};
  f.minimal.c.values = ValueSpec{1, false, {}};
  for (auto& [name, o] : f.minimal.outcomes)
    if (o.status == Status::ok) o.grads = {std::nullopt, Grad{{4, 3}, "float32", {2, 2}}};
  f.minimal.outcomes[2].second.grads[1]->values = {2, 3};
  f.minimal.judgement.difference = "grad values";
  f.minimal.judgement.attribution = "xtensor is the odd one out (...) [gradient of operand 1]";
  const std::string html = finding_html(sample_summary(), f, 0);
  EXPECT_NE(html.find("<th>grad of operand 0</th>"), std::string::npos);
  EXPECT_NE(html.find("<code>none</code>"), std::string::npos);
  EXPECT_NE(html.find("<th>grad of operand 1 <strong>≠ first difference</strong>"), std::string::npos);
  EXPECT_NE(html.find("<code>[4, 3] float32 [2, 3] (2 elements)</code>"), std::string::npos);
}

TEST(FindingHtml, KnownDivergenceShowsItsDeclaration) {
  const std::string html = finding_html(sample_summary(), known_finding(), 4);
  EXPECT_NE(html.find("id=\"finding-5\""), std::string::npos);
  EXPECT_NE(html.find(">KNOWN</span> declared divergence"), std::string::npos);
  EXPECT_NE(html.find("<dd>xtensor resizes &lt;self&gt; &amp; does not refuse</dd>"), std::string::npos);
  EXPECT_NE(html.find("href=\"https://example.org/issue?a=1&amp;b=2\""), std::string::npos);
}

TEST(FindingHtml, EachReproduceTextHasItsOwnCopyButton) {
  const std::string html = finding_html(sample_summary(), new_finding(), 2);
  for (const char* id : {"finding-3-replay", "finding-3-reproduce", "finding-3-draft"}) {
    EXPECT_EQ(count(html, std::string("data-copy=\"") + id + "\""), 1u) << id;
    EXPECT_EQ(count(html, std::string("<pre id=\"") + id + "\">"), 1u) << id;
  }
  EXPECT_EQ(count(html, "<button type=\"button\" class=\"copy\""), 3u);
  EXPECT_NE(html.find("<pre id=\"finding-3-reproduce\">build/broadcheck replay --reproduce "
                      "bc1/42/broadcast_symmetric/7/0.1</pre>"),
            std::string::npos);
  EXPECT_NE(html.find("a &lt; b &amp;&amp; c"), std::string::npos);  // the draft, escaped

  Finding bare = new_finding();
  bare.replay_command = bare.reproduce = bare.regression_draft = "";
  EXPECT_EQ(count(finding_html(sample_summary(), bare, 0), "class=\"copy\""), 0u);
}

TEST(FindingHtml, FilterTokensAndTheirAttributes) {
  Finding f = new_finding();
  f.minimal.outcomes.push_back({"other lib", Outcome{}});
  f.minimal.outcomes.back().second.status = Status::crash;
  f.minimal.judgement.odd_ones = {"torch", "other lib"};
  const auto tokens = finding_filter_tokens(f);
  EXPECT_EQ(tokens.at("group"), std::vector<std::string>{"new"});
  EXPECT_EQ(tokens.at("op"), std::vector<std::string>{"add"});
  EXPECT_EQ(tokens.at("property"), std::vector<std::string>{"broadcast_symmetric"});
  EXPECT_EQ(tokens.at("odd"), (std::vector<std::string>{"torch", "other_lib"}));
  EXPECT_EQ(tokens.at("error"), (std::vector<std::string>{"broadcast", "crash"}));
  const std::string html = finding_html(sample_summary(), f, 0);
  EXPECT_NE(html.find("data-odd=\"torch other_lib\""), std::string::npos);
  EXPECT_NE(html.find("data-error=\"broadcast crash\""), std::string::npos);
  EXPECT_EQ(finding_filter_tokens(known_finding()).at("group"), std::vector<std::string>{"known"});
}

}  // namespace
}  // namespace bc
