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
  EXPECT_NE(summary.find("<code>add([2, 1, 3] float32 contiguous, [4, 3] float32 contiguous; alpha=1)</code>"),
            std::string::npos);
  EXPECT_NE(summary.find("odd one out: torch"), std::string::npos);
  EXPECT_NE(summary.find("17 hit(s)"), std::string::npos);
  EXPECT_EQ(html.rfind("<details class=\"finding new\" id=\"finding-1\"", 0), 0u);
}

TEST(FindingHtml, OutcomesSideBySideWithTheOddOneOut) {
  const std::string html = finding_html(sample_summary(), new_finding(), 0);
  EXPECT_NE(html.find("<th class=\"odd-one\">torch<br><strong>odd one out</strong></th>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"differs\"><th>status <strong>≠ first difference</strong></th>"),
            std::string::npos);
  EXPECT_NE(html.find("<pre>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</pre>"),
            std::string::npos);
  EXPECT_NE(html.find("add([7, 2, 1, 3] float32 contiguous, [9, 1, 4, 3] float32 contiguous; alpha=1)"),
            std::string::npos);  // the original case
  EXPECT_NE(html.find("<table class=\"shapes\">"), std::string::npos);
}

// Where every implementation answers differently there is no majority, so nobody is called the odd one out.
TEST(FindingHtml, WithoutAMajorityNobodyIsTheOddOneOut) {
  Finding f = new_finding();
  Outcome crash;
  crash.status = Status::crash;
  crash.detail = "SIGFPE";
  f.minimal.outcomes[2].second = crash;
  f.minimal.judgement = judge(f.property, f.minimal.c, f.minimal.outcomes, {});
  ASSERT_EQ(f.minimal.judgement.odd_ones.size(), 3u);
  const std::string html = finding_html(sample_summary(), f, 0);
  EXPECT_EQ(html.find("odd one out"), std::string::npos) << html.substr(0, html.find("</summary>"));
  EXPECT_EQ(html.find("odd-one"), std::string::npos);
  EXPECT_NE(html.find("no majority"), std::string::npos);
  // With a majority, the header and the column still name the odd one.
  EXPECT_NE(finding_html(sample_summary(), new_finding(), 0).find("odd one out: torch"), std::string::npos);
}

// The cells of the row `field` (from its heading to the end of the row).
std::string row_of(const std::string& html, const std::string& field) {
  const size_t at = html.find("<th>" + field);
  return at == std::string::npos ? "" : html.substr(at, html.find("</tr>", at) - at);
}

TEST(FindingHtml, OnlyTheDifferingCellsAreMarked) {
  // torch alone refuses: its status and summary cells differ from the majority's; its "—" under shape, and the
  // engine's and xtensor's cells, do not. No column is marked as a whole.
  const std::string html = finding_html(sample_summary(), new_finding(), 0);
  EXPECT_EQ(count(html, "<td class=\"diff\">"), 2u);
  EXPECT_NE(row_of(html, "status").find("<td>ok</td><td class=\"diff\"><span class=\"sign\">≠ </span>error</td>"
                                        "<td>ok</td>"),
            std::string::npos);
  EXPECT_EQ(row_of(html, "shape").find("diff"), std::string::npos);
  EXPECT_EQ(html.find("<td class=\"odd"), std::string::npos);

  // An implementation that does not support the case abstains: its cells are neither the reference nor marked.
  Finding f = new_finding();
  f.minimal.outcomes.insert(f.minimal.outcomes.begin(), {"numpy", Outcome::unsupported_because("not declared")});
  f.minimal.outcomes.push_back({"other", Outcome::unsupported_because("its own words")});
  const std::string abstaining = finding_html(sample_summary(), f, 0);
  EXPECT_EQ(count(abstaining, "<td class=\"diff\">"), 2u);
  EXPECT_NE(row_of(abstaining, "status").find("<td>unsupported</td><td>ok</td><td class=\"diff\">"),
            std::string::npos);
  EXPECT_EQ(row_of(abstaining, "detail").find("diff"), std::string::npos);
}

TEST(FindingHtml, ValuesDifferBeyondTheToleranceOnly) {
  Finding f = new_finding();
  f.minimal.outcomes[0].second.values = {1, 2.5};
  f.minimal.outcomes[1].second = Outcome::success({2, 4, 3});
  f.minimal.outcomes[1].second.values = {1, 3};
  f.minimal.outcomes[2].second.values = {1, 2.5000001};  // within float32's tolerance of the engine's
  f.minimal.judgement.difference = "values";
  const std::string values = row_of(finding_html(sample_summary(), f, 0), "values");
  EXPECT_EQ(count(values, "<td class=\"diff\">"), 1u) << values;
  EXPECT_NE(values.find("<td class=\"diff\"><span class=\"sign\">≠ </span><code>[1, 3]"), std::string::npos);
}

TEST(FindingHtml, MessagesDifferOnlyBetweenTheRuleAndTheReference) {
  Finding f = new_finding();
  f.minimal.outcomes = {{"engine", Outcome::failure(ErrorKind::broadcast, "engine words")},
                        {"torch", Outcome::failure(ErrorKind::broadcast, "torch words")},
                        {"xtensor", Outcome::failure(ErrorKind::broadcast, "xtensor's own words")}};
  f.minimal.judgement.difference = "message";
  f.minimal.judgement.odd_ones = {"engine"};
  const std::string message = row_of(finding_html(sample_summary(), f, 0), "error message");
  EXPECT_EQ(count(message, "<td class=\"diff\">"), 1u) << message;
  EXPECT_NE(message.find("<td class=\"diff\"><span class=\"sign\">≠ </span><pre>engine words"), std::string::npos);
}

TEST(FindingHtml, TheHeaderShowsTheWholeMinimalCase) {
  Case c;
  c.op = Op::addmm_;
  c.shapes = {{2, 3}, {2, 4}, {4, 3}};
  c.dtypes = {DType::float64, DType::float32, DType::float32};
  c.layouts = {Layout::contiguous, Layout::transposed, Layout::contiguous};
  c.scalars = {{"beta", Scalar{0.5, false}}, {"alpha", Scalar{2, false}}};
  c.values = ValueSpec{3, true, {}};
  EXPECT_EQ(case_header_text(c), "addmm_([2, 3] float64 contiguous, [2, 4] float32 transposed, "
                                 "[4, 3] float32 contiguous; beta=0.5, alpha=2.0, special values)");
  c.scalars.erase("alpha");  // the default, an int
  c.requires_grad = {false, true, false};
  EXPECT_NE(case_header_text(c).find("[2, 4] float32 transposed requires grad"), std::string::npos);
  EXPECT_NE(case_header_text(c).find("; beta=0.5, alpha=1, special values"), std::string::npos);
  // Shape rules alone: no dtype or layout to speak of.
  Case shapes;
  shapes.op = Op::broadcast_shapes;
  shapes.shapes = {{2, 1}, {3}};
  EXPECT_EQ(case_header_text(shapes), "broadcast_shapes([2, 1], [3])");
  // A graph shows its program after the operands.
  Case graph;
  graph.op = Op::graph;
  graph.shapes = {{2}, {}};
  graph.program = {{Op::mul, {0, 1}}, {Op::gt, {2, 1}}, {Op::where, {3, 2, 0}}};
  EXPECT_EQ(case_header_text(graph), "graph([2] float32 contiguous, [] float32 contiguous: t2 = mul(x0, x1); "
                                     "t3 = gt(t2, x1); t4 = where(t3, t2, x0))");

  Finding f = new_finding();
  f.minimal.c.dtypes = {DType::int64, DType::float64};
  f.minimal.c.scalars = {{"alpha", Scalar{-0.0, false}}};
  const std::string html = finding_html(sample_summary(), f, 0);
  const std::string summary = html.substr(0, html.find("</summary>"));
  EXPECT_NE(summary.find("<code>add([2, 1, 3] int64 contiguous, [4, 3] float64 contiguous; alpha=-0.0)</code>"),
            std::string::npos) << summary;
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
  EXPECT_NE(html.find("<pre id=\"finding-3-reproduce\">broadcheck replay --reproduce "
                      "bc1/42/broadcast_symmetric/7/0.1</pre>"),
            std::string::npos);
  EXPECT_NE(html.find("a &lt; b &amp;&amp; c"), std::string::npos);  // the draft, escaped

  Finding bare = new_finding();
  bare.replay_command = bare.reproduce_command = bare.regression_draft = "";
  EXPECT_EQ(count(finding_html(sample_summary(), bare, 0), "class=\"copy\""), 0u);

  // An adapter's command gets a button of its own, escaped.
  Finding adapter = new_finding();
  adapter.adapter_commands["mine"] = "printf '%s\\n' '{}' | (cd /x && ./mine < in)";
  const std::string with_adapter = finding_html(sample_summary(), adapter, 2);
  EXPECT_EQ(count(with_adapter, "data-copy=\"finding-3-adapter-1\""), 1u);
  EXPECT_NE(with_adapter.find("<pre id=\"finding-3-adapter-1\">printf &#39;%s\\n&#39; &#39;{}&#39; | "
                              "(cd /x &amp;&amp; ./mine &lt; in)</pre>"),
            std::string::npos)
      << with_adapter;
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

// Every difference gets a row: what differs, who, which declaration explains it and whose part none does.
TEST(FindingHtml, EveryDifferenceWithWhatExplainsIt) {
  Finding f = new_finding();
  f.minimal.judgement.differences = {
      {"status", FindingClass::outcome, -1, {"xtensor"}, "xtensor is the odd one out", {"xt-resizes"}, {}, Verdict::discrepancy},
      {"grad values", FindingClass::outcome, 1, {"torch"}, "torch is the odd one out (...)", {}, {"torch"}, Verdict::discrepancy}};
  f.minimal.judgement.difference = "grad values";
  f.minimal.judgement.odd_ones = {"torch"};
  const std::string html = finding_html(sample_summary(), f, 0);
  EXPECT_NE(html.find("<h4>Every difference</h4>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"declared\"><td>status</td><td>outcome</td><td>xtensor</td><td>xt-resizes</td><td>—</td>"),
            std::string::npos) << html;
  EXPECT_NE(html.find("<tr class=\"undeclared\"><td>grad values (operand 1)</td><td>outcome</td><td>torch</td><td>—</td>"
                      "<td>torch</td>"),
            std::string::npos) << html;
  EXPECT_EQ(finding_filter_tokens(f).at("class"), std::vector<std::string>{"outcome"});
  f.minimal.judgement.differences[1].finding_class = FindingClass::message;
  EXPECT_EQ(finding_filter_tokens(f).at("class"), std::vector<std::string>{"message"});
  // A finding without differences (an older results file) has no table.
  EXPECT_EQ(finding_html(sample_summary(), new_finding(), 0).find("Every difference"), std::string::npos);
}

}  // namespace
}  // namespace bc
