// report.html as a page: escaping of everything that comes from data, the header's verdict and counts, cases per
// property and op, new before known, declarations with the findings they matched, the filter bar,
// self-containment and size. The parts have their own tests (finding_html, shape_picture, coverage_html,
// html_text); the browser test (html_report_browser_test.py) opens a real report in headless Chromium.
#include "reports/html_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "html_samples.h"

namespace bc {
namespace {

using testing::count;
using testing::kEvilMessage;
using testing::new_finding;
using testing::sample_summary;

// The text between `from` and the next `to` after it ("" when `from` is absent).
std::string between(const std::string& html, const std::string& from, const std::string& to) {
  const size_t at = html.find(from);
  if (at == std::string::npos) return "";
  return html.substr(at, html.find(to, at) - at);
}

TEST(HtmlReport, EscapesMessagesNotesReasonsAndInputErrors) {
  const std::string html = html_report(sample_summary());
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;note&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>note</b>"), std::string::npos);
  EXPECT_EQ(html.find("\"<pow>\""), std::string::npos);
  EXPECT_NE(html.find("&quot;&lt;pow&gt;&quot;"), std::string::npos);
  EXPECT_EQ(count(html, "<script"), 1u);  // only the report's own script
}

// A library that words one check in two ways across ops: its own section, after the declarations; none otherwise.
TEST(HtmlReport, MessageFindingsOfALibraryAgainstItself) {
  RunSummary s = sample_summary();
  EXPECT_EQ(html_report(s).find("id=\"messages\""), std::string::npos);
  s.messages.add(Op::add, {{"torch", Outcome::failure(ErrorKind::inplace_shape, "output with shape [1] doesn't match the broadcast shape [3]")}});
  s.messages.add(Op::addmm_, {{"torch", Outcome::failure(ErrorKind::inplace_shape, "Bad in-place call: input tensor size [1] and output tensor size [2] should match")}});
  const std::string html = html_report(s);
  const std::string section = between(html, "<section id=\"messages\">", "</section>");
  ASSERT_FALSE(section.empty());
  EXPECT_GT(html.find("<section id=\"messages\">"), html.find("<section id=\"declarations\">"));
  EXPECT_NE(section.find("<h3>LibTorch: inplace_shape in 2 wordings</h3>"), std::string::npos) << section;
  EXPECT_NE(section.find("<code>output with shape [...] doesn&#39;t match the broadcast shape [...]</code></td><td>add</td>"),
            std::string::npos) << section;
  EXPECT_NE(section.find("<td>addmm_</td>"), std::string::npos) << section;
}

TEST(HtmlReport, IsACompleteSelfContainedDocument) {
  const std::string html = html_report(sample_summary());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
  for (const char* external : {"src=", "<link", "@import", "url(", "http://", "//cdn"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
}

TEST(HtmlReport, HeaderStatesTheVerdictInWordsAndTheRun) {
  const std::string html = html_report(sample_summary());
  const std::string header = between(html, "<header>", "</header>");
  EXPECT_NE(header.find("FAILED: 1 new finding(s)"), std::string::npos);
  EXPECT_NE(header.find("1010 case(s) · seed <code>42</code> · exit code 1"), std::string::npos);
  // Timing and the command line stay out of the header (runs that differ only there read the same up top).
  EXPECT_EQ(header.find("12.5 s"), std::string::npos);
  EXPECT_NE(header.find("<th>agreements</th><td class=\"num\">990</td>"), std::string::npos);
  EXPECT_NE(header.find("<th>new discrepancies</th><td class=\"num\">17</td>"), std::string::npos);
  EXPECT_NE(header.find("<th>known divergences</th><td class=\"num\">3</td>"), std::string::npos);
  EXPECT_NE(header.find("<th>crashes (any implementation)</th><td class=\"num\">3</td>"), std::string::npos);
  EXPECT_NE(header.find("<th>timeouts (any implementation)</th><td class=\"num\">4</td>"), std::string::npos);
  // The run's facts come after the findings, in the summary.
  const std::string run = between(html, "<table class=\"run\">", "</table>");
  EXPECT_NE(run.find("2024-05-01T12:00:00Z"), std::string::npos);
  EXPECT_NE(run.find("12.5 s"), std::string::npos);
  EXPECT_NE(run.find("broadcheck run --seed 42 --no-known"), std::string::npos);
  EXPECT_NE(run.find("LibTorch (torch)</th><td><code>1.13.1"), std::string::npos);
  EXPECT_NE(run.find("xtensor</th><td><code>0.24.3"), std::string::npos);
  EXPECT_NE(run.find("broadcheck commit</th><td><code>abc1234"), std::string::npos);
  EXPECT_GT(html.find("<table class=\"run\">"), html.find("id=\"finding-2\""));

  RunSummary clean = sample_summary();
  clean.findings = {testing::known_finding()};
  clean.input_errors.clear();
  clean.exit_code = 0;
  EXPECT_NE(html_report(clean).find("PASSED: nothing new disagrees"), std::string::npos);
}

TEST(HtmlReport, ListsCasesPerPropertyAndOp) {
  const std::string html = html_report(sample_summary());
  EXPECT_NE(html.find("<tr><th>broadcast_symmetric</th><td class=\"num\">500</td><td>add 300, mul 200</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><th>inplace_rule</th><td class=\"num\">500</td><td>add_ 500</td></tr>"), std::string::npos);
}

TEST(HtmlReport, ShowsTheScoreboardWithNewDeparturesMarked) {
  RunSummary s = sample_summary();
  EXPECT_EQ(html_report(s).find("scoreboard:"), std::string::npos) << "no table without a scoreboard";
  s.scoreboard["xtensor"]["inplace"] = Score{40, 30, 6, 4, 9};
  s.scoreboard["engine"]["inplace"] = Score{49, 49, 0, 0, 0};
  const std::string html = html_report(s);
  EXPECT_NE(html.find("<tr><th>xtensor</th><td>inplace</td><td class=\"num\">40</td><td class=\"num\">30</td>"
                      "<td class=\"num\">6</td><td class=\"num odd\">4</td><td class=\"num\">9</td></tr>"),
            std::string::npos) << html.substr(html.find("scoreboard:"), 800);
  EXPECT_LT(html.find("<tr><th>the engine (engine)</th><td>inplace</td>"), html.find("<tr><th>xtensor</th><td>inplace</td>"));
}

TEST(HtmlReport, NewFindingsComeBeforeKnownOnes) {
  const std::string html = html_report(sample_summary());
  const size_t fresh = html.find("id=\"finding-1\"");
  const size_t known = html.find("id=\"finding-2\"");
  ASSERT_NE(fresh, std::string::npos);
  ASSERT_NE(known, std::string::npos);
  EXPECT_NE(html.substr(fresh - 100, 100).find("finding new"), std::string::npos);
  EXPECT_NE(html.substr(known - 100, 100).find("finding known"), std::string::npos);
  EXPECT_LT(html.find("New findings (1)"), html.find("Known divergences (1)"));
}

TEST(HtmlReport, FindingsComeFirstThenTheSummaryCoverageAndDeclarations) {
  const std::string html = html_report(sample_summary());
  const std::vector<std::string> order = {"<p class=\"verdict", "<section id=\"findings\">", "New findings (1)",
                                          "id=\"finding-1\"", "Known divergences (1)", "id=\"finding-2\"",
                                          "<section id=\"summary\">", "<section id=\"coverage\">",
                                          "<section id=\"declarations\">", "<section id=\"input-errors\">"};
  size_t last = 0;
  for (const std::string& mark : order) {
    const size_t at = html.find(mark);
    ASSERT_NE(at, std::string::npos) << mark;
    EXPECT_GT(at, last) << mark << " comes too early";
    last = at;
  }
}

TEST(HtmlReport, EveryTableThatMayBeWideScrollsInItsOwnBox) {
  RunSummary s = sample_summary();
  s.scoreboard["xtensor"]["inplace"] = Score{40, 30, 6, 4, 9};
  const std::string html = html_report(s);
  // Every table but the small count tables sits directly in a div.wide.
  size_t tables = 0, wrapped = 0;
  for (size_t at = html.find("<table"); at != std::string::npos; at = html.find("<table", at + 1)) {
    ++tables;
    const std::string before = html.substr(at >= 18 ? at - 18 : 0, at >= 18 ? 18 : at);
    if (before == "<div class=\"wide\">") ++wrapped;
  }
  EXPECT_EQ(tables - wrapped, static_cast<size_t>(count(html, "<table><caption>")));
  for (const char* table : {"<table class=\"run\">", "<table class=\"scoreboard\">", "<table class=\"per-op\">",
                            "<table class=\"declarations\">", "<table class=\"coverage\">",
                            "<table class=\"shapes\">", "<table class=\"outcomes\">"})
    EXPECT_NE(html.find(std::string("<div class=\"wide\">") + table), std::string::npos) << table;
  EXPECT_NE(html.find("div.wide { max-width: 100%; overflow-x: auto; }"), std::string::npos);
}

TEST(HtmlReport, DeclarationsShowTheFindingsTheyMatchedAndStaleness) {
  const std::string html = html_report(sample_summary());
  const std::string row = between(html, "<tr><td><code>xtensor-inplace-resize</code>", "</tr>");
  EXPECT_NE(row.find("xtensor resizes &lt;self&gt; &amp; does not refuse"), std::string::npos);
  EXPECT_NE(row.find("href=\"https://example.org/issue?a=1&amp;b=2\""), std::string::npos);
  EXPECT_NE(row.find("<a href=\"#finding-2\">#2</a> <code>add_([1], [3])</code> (3 hit(s))"), std::string::npos);
  EXPECT_EQ(count(html, ">STALE</span>"), 1u);  // old-declaration: covered 10, matched 0
  EXPECT_NE(html.find("1 of them <strong>STALE</strong>"), std::string::npos);
  EXPECT_NE(html.find("corpus/x.jsonl:3"), std::string::npos);
}

TEST(HtmlReport, FilterBarOffersEveryValueTheFindingsHave) {
  const std::string html = html_report(sample_summary());
  const std::string bar = between(html, "<div class=\"filters\"", "</div>");
  EXPECT_NE(bar.find(" hidden>"), std::string::npos);  // shown by the script only
  EXPECT_NE(bar.find("id=\"filter-text\""), std::string::npos);
  for (const char* key : {"group", "op", "property", "odd", "error"})
    EXPECT_NE(bar.find(std::string("data-key=\"") + key + "\""), std::string::npos) << key;
  for (const char* value : {"new", "known", "add", "add_", "broadcast_symmetric", "inplace_rule", "torch", "xtensor",
                            "broadcast", "inplace_shape"})
    EXPECT_NE(bar.find(std::string("<option value=\"") + value + "\">"), std::string::npos) << value;
  EXPECT_NE(bar.find("id=\"open-all\""), std::string::npos);
}

TEST(HtmlReport, SizeGrowsLinearlyWithFindings) {
  RunSummary s = sample_summary();
  s.findings.clear();
  const size_t base = html_report(s).size();
  for (int i = 0; i < 10; ++i) s.findings.push_back(new_finding());
  const size_t ten = html_report(s).size();
  for (int i = 0; i < 10; ++i) s.findings.push_back(new_finding());
  const size_t twenty = html_report(s).size();
  const double first = static_cast<double>(ten - base), second = static_cast<double>(twenty - ten);
  EXPECT_NEAR(second / first, 1.0, 0.05);
  EXPECT_LT(first / 10, 16000.0);  // a finding block stays small: 200 signatures stay within a few MB
}

TEST(HtmlReport, WriteFailureNamesThePath) {
  const std::string path = "/nonexistent-dir-for-broadcheck/report.html";
  try {
    write_html_report(sample_summary(), path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& err) {
    EXPECT_NE(std::string(err.what()).find(path), std::string::npos);
  }
}

}  // namespace
}  // namespace bc
