// report.html: escaping of everything that comes from data, the MISSING coverage flag, known findings with their
// declaration, the shape picture's marks, self-containment and size.
#include "reports/html_report.h"

#include <gtest/gtest.h>

#include <string>

namespace bc {
namespace {

const std::string kEvilMessage = "<script>alert(\"x\")</script> & 'q'";

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

Finding new_finding() {
  Finding f;
  f.property = "broadcast_symmetric";
  f.family = "elementwise";
  f.verdict = Verdict::discrepancy;
  f.signature = "broadcast_symmetric | elementwise | status | odd: torch | engine=ok torch=error:broadcast xtensor=ok";
  f.minimal.property = f.property;
  f.minimal.c.op = "add";
  f.minimal.c.shapes = {{2, 1, 3}, {4, 3}};
  f.minimal.c.note = "<b>note</b>";
  f.minimal.outcomes = {{"engine", Outcome::success({2, 4, 3})},
                        {"torch", Outcome::failure(ErrorKind::broadcast, kEvilMessage)},
                        {"xtensor", Outcome::success({2, 4, 3})}};
  f.minimal.judgement.verdict = Verdict::discrepancy;
  f.minimal.judgement.difference = "status";
  f.minimal.judgement.odd_ones = {"torch"};
  f.minimal.judgement.attribution = "torch is the odd one out";
  f.minimal.judgement.signature = f.signature;
  f.original = f.minimal.c;
  f.original.shapes = {{7, 2, 1, 3}, {9, 1, 4, 3}};
  f.hits = 17;
  f.shrink_steps = 5;
  return f;
}

Finding known_finding() {
  Finding f;
  f.property = "inplace_rule";
  f.family = "inplace";
  f.verdict = Verdict::known;
  f.known_id = "xtensor-inplace-resize";
  f.signature = "inplace_rule | inplace | status | odd: xtensor | engine=error:inplace_shape torch=error:inplace_shape xtensor=ok";
  f.minimal.property = f.property;
  f.minimal.c.op = "add_";
  f.minimal.c.shapes = {{1}, {3}};
  f.minimal.outcomes = {{"engine", Outcome::failure(ErrorKind::inplace_shape, "output with shape [1] ...")},
                        {"torch", Outcome::failure(ErrorKind::inplace_shape, "output with shape [1] ...")},
                        {"xtensor", Outcome::success({3})}};
  f.minimal.judgement.verdict = Verdict::known;
  f.minimal.judgement.difference = "status";
  f.minimal.judgement.odd_ones = {"xtensor"};
  f.minimal.judgement.known_id = f.known_id;
  f.original = f.minimal.c;
  f.hits = 3;
  return f;
}

RunSummary sample_summary() {
  RunSummary s;
  s.command = "run";
  s.arguments = {"broadcheck", "run", "--seed", "42"};
  s.seed = 42;
  s.started_at = "2024-05-01T12:00:00Z";
  s.seconds = 12.5;
  s.versions = {{"torch", "1.13.1"}, {"xtensor", "0.24.3"}};
  s.verdicts = {{"agree", 990}, {"discrepancy", 17}, {"known", 3}};
  s.cases_per_property = {{"broadcast_symmetric", 500}, {"inplace_rule", 500}};
  s.coverage.counts["broadcast_symmetric"] = {{"max rank 3", 120}, {"near_miss", 40}};
  s.coverage.required["broadcast_symmetric"] = {"near_miss", "size-0 dim"};
  s.findings = {known_finding(), new_finding()};  // deliberately known first: the report must reorder
  Declaration d;
  d.id = "xtensor-inplace-resize";
  d.oracle = "xtensor";
  d.ops = {"add_"};
  d.reason = "xtensor resizes <self> & does not refuse";
  d.reference = "https://example.org/issue?a=1&b=2";
  s.declarations = {{d, 500, 3}};
  Declaration old;
  old.id = "old-declaration";
  old.oracle = "torch";
  old.reason = "fixed long ago";
  old.reference = "none";
  s.declarations.push_back({old, 10, 0});
  s.input_errors = {"corpus/x.jsonl:3: unknown op \"<pow>\""};
  return s;
}

TEST(HtmlEscape, EscapesTheFiveSpecialCharacters) {
  EXPECT_EQ(html_escape(kEvilMessage), "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;");
  EXPECT_EQ(html_escape("plain [2, 3]"), "plain [2, 3]");
}

TEST(HtmlReport, EscapesMessagesAndNotes) {
  const std::string html = html_report(sample_summary());
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;note&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>note</b>"), std::string::npos);
  EXPECT_EQ(html.find("\"<pow>\""), std::string::npos);
  EXPECT_NE(html.find("&quot;&lt;pow&gt;&quot;"), std::string::npos);
  EXPECT_EQ(count(html, "<script"), 1u);  // only the report's own filter script
}

TEST(HtmlReport, IsACompleteSelfContainedDocument) {
  const std::string html = html_report(sample_summary());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
  for (const char* external : {"src=", "<link", "@import", "url("}) EXPECT_EQ(html.find(external), std::string::npos) << external;
  EXPECT_NE(html.find("42"), std::string::npos);
  EXPECT_NE(html.find("1.13.1"), std::string::npos);
  EXPECT_NE(html.find("2024-05-01T12:00:00Z"), std::string::npos);
}

TEST(HtmlReport, FlagsRequiredCoverageClassWithNoCases) {
  RunSummary s = sample_summary();
  const std::string html = html_report(s);
  const size_t row = html.find("<td>size-0 dim</td>");
  ASSERT_NE(row, std::string::npos);
  const size_t row_end = html.find("</tr>", row);
  EXPECT_NE(html.substr(row, row_end - row).find("MISSING"), std::string::npos);
  EXPECT_EQ(count(html, ">MISSING</span>"), 1u);  // near_miss is required and was produced: not flagged

  s.coverage.counts["broadcast_symmetric"]["size-0 dim"] = 4;
  EXPECT_EQ(count(html_report(s), ">MISSING</span>"), 0u);
}

TEST(HtmlReport, KnownFindingShowsItsDeclaration) {
  const std::string html = html_report(sample_summary());
  EXPECT_NE(html.find("xtensor resizes &lt;self&gt; &amp; does not refuse"), std::string::npos);
  EXPECT_NE(html.find("href=\"https://example.org/issue?a=1&amp;b=2\""), std::string::npos);
  const size_t fresh = html.find("data-group=\"new\"");
  const size_t known = html.find("data-group=\"known\"");
  ASSERT_NE(fresh, std::string::npos);
  ASSERT_NE(known, std::string::npos);
  EXPECT_LT(fresh, known);  // new before known
  EXPECT_NE(html.find(">KNOWN</span>"), std::string::npos);
  EXPECT_NE(html.find(">NEW</span>"), std::string::npos);
}

TEST(HtmlReport, MarksOddOneOutStaleDeclarationsAndInputErrors) {
  const std::string html = html_report(sample_summary());
  EXPECT_NE(html.find("odd one out"), std::string::npos);
  EXPECT_EQ(count(html, ">STALE</span>"), 1u);  // old-declaration: covered 10, matched 0
  EXPECT_NE(html.find("corpus/x.jsonl:3"), std::string::npos);
  EXPECT_NE(html.find("17 hit(s)"), std::string::npos);
  EXPECT_NE(html.find("add([2, 1, 3], [4, 3])"), std::string::npos);  // minimal
  EXPECT_NE(html.find("add([7, 2, 1, 3], [9, 1, 4, 3])"), std::string::npos);  // original
  EXPECT_NE(html.find("<details"), std::string::npos);
  EXPECT_NE(html.find("id=\"filter-text\""), std::string::npos);
}

TEST(ShapePicture, MarksStretchedSingletonsAndClashes) {
  Case c;
  c.op = "add";
  c.shapes = {{2, 1, 3}, {4, 3}};
  const std::string stretched = shape_picture_html(c, {});
  EXPECT_NE(stretched.find("1 ↑ (1→4)"), std::string::npos);
  EXPECT_EQ(stretched.find("<td class=\"clash\">"), std::string::npos);
  EXPECT_NE(stretched.find("<td class=\"pad\">"), std::string::npos);  // [4, 3] has no dim -3

  c.shapes = {{2, 3}, {4, 3}};
  const std::string clash = shape_picture_html(c, {});
  EXPECT_NE(clash.find("<td class=\"clash\">2 ✗</td>"), std::string::npos);
  EXPECT_NE(clash.find("<td class=\"clash\">4 ✗</td>"), std::string::npos);
  EXPECT_EQ(clash.find("<td class=\"stretch\""), std::string::npos);
}

TEST(ShapePicture, MatmulComparesOnlyBatchDims) {
  Case c;
  c.op = "matmul";
  c.shapes = {{5, 2, 3}, {3, 4}};
  const std::string html = shape_picture_html(c, {{"engine", Outcome::success({5, 2, 4})}});
  EXPECT_EQ(html.find("✗</td>"), std::string::npos);  // 3 against 4 in the matrix dims is not a clash
  EXPECT_NE(html.find("result (engine)"), std::string::npos);
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
  EXPECT_LT(first / 10, 12000.0);  // a finding block stays small
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
