// junit.xml: one failure per new finding and none for known ones, escaping, counts, and a document whose tags
// all balance (checked with a small tag walker, not only by counting).
#include "reports/junit_writer.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace bc {
namespace {

const std::string kEvilMessage = "<script>alert(\"x\")</script> & 'q'";

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

Finding finding(const std::string& property, const std::string& family, Verdict verdict, const std::string& tag) {
  Finding f;
  f.property = property;
  f.family = family;
  f.verdict = verdict;
  f.signature = property + " | " + family + " | status | odd: torch | " + tag;
  f.minimal.property = property;
  f.minimal.c.op = family == "matmul" ? "matmul" : "add";
  f.minimal.c.shapes = {{2, 3}, {4, 3}};
  f.minimal.c.note = "<b>note</b>";
  f.minimal.outcomes = {{"engine", Outcome::failure(ErrorKind::broadcast, "The size of tensor a (3) ...")},
                        {"torch", Outcome::failure(ErrorKind::other, kEvilMessage)},
                        {"xtensor", Outcome::failure(ErrorKind::broadcast, "broadcast error")}};
  f.minimal.judgement.verdict = verdict;
  f.minimal.judgement.difference = "error kind";
  f.minimal.judgement.odd_ones = {"torch"};
  f.minimal.judgement.attribution = "torch is the odd one out";
  f.minimal.judgement.signature = f.signature;
  if (verdict == Verdict::known) f.known_id = f.minimal.judgement.known_id = "declared-" + tag;
  f.original = f.minimal.c;
  f.hits = 4;
  f.shrink_steps = 2;
  return f;
}

RunSummary sample_summary() {
  RunSummary s;
  s.command = "run";
  s.seed = 7;
  s.started_at = "2024-05-01T12:00:00Z";
  s.seconds = 10;
  s.versions = {{"torch", "1.13.1"}};
  s.cases_per_property = {{"broadcast_symmetric", 600}, {"inplace_rule", 300}, {"corpus", 100}};
  s.findings = {finding("broadcast_symmetric", "elementwise", Verdict::discrepancy, "a"),
                finding("broadcast_symmetric", "elementwise", Verdict::discrepancy, "b"),
                finding("broadcast_symmetric", "matmul", Verdict::expect_failed, "c"),
                finding("corpus", "elementwise", Verdict::known, "k")};
  return s;
}

// Test cases that open and close: self-closing, or closed by </testcase> before the next one opens.
size_t closed_testcases(const std::string& xml) {
  size_t closed = 0;
  for (size_t at = xml.find("<testcase "); at != std::string::npos;) {
    const size_t end = xml.find('>', at);
    const size_t next = xml.find("<testcase ", at + 1);
    if (end == std::string::npos) break;
    if (xml[end - 1] == '/') ++closed;
    else if (const size_t close = xml.find("</testcase>", end); close != std::string::npos && close < next) ++closed;
    at = next;
  }
  return closed;
}

// Walks every tag, checking that each one that opens also closes, in order, that attribute values are quoted, and
// that every '&' starts an entity. Returns "" when the document is balanced, else what went wrong.
std::string check_balanced(const std::string& xml) {
  std::vector<std::string> open;
  for (size_t i = 0; i < xml.size(); ++i) {
    if (xml[i] == '&') {
      bool entity = false;
      for (const char* ent : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"})
        entity = entity || xml.compare(i, std::strlen(ent), ent) == 0;
      if (!entity) return "bare & at " + std::to_string(i);
      continue;
    }
    if (xml[i] == '>') return "bare > at " + std::to_string(i);
    if (xml[i] != '<') continue;
    if (xml.compare(i, 2, "<?") == 0) {
      i = xml.find("?>", i);
      if (i == std::string::npos) return "unterminated <?";
      ++i;
      continue;
    }
    const bool closing = xml.compare(i, 2, "</") == 0;
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == '-' || xml[j] == '_')) ++j;
    const std::string name = xml.substr(name_start, j - name_start);
    if (name.empty()) return "empty tag name at " + std::to_string(i);
    char quote = 0;
    for (; j < xml.size() && (quote || xml[j] != '>'); ++j) {
      if (quote && xml[j] == '<') return "raw < inside an attribute of <" + name + ">";
      if (xml[j] == '"' || xml[j] == '\'') quote = quote == xml[j] ? 0 : quote ? quote : xml[j];
    }
    if (j == xml.size()) return "unterminated tag <" + name;
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
      open.pop_back();
    } else if (xml[j - 1] != '/') {
      open.push_back(name);
    }
    i = j;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

TEST(JunitXml, OneFailurePerNewFindingNoneForKnown) {
  const std::string xml = junit_xml(sample_summary());
  EXPECT_EQ(count(xml, "<failure "), 3u);
  EXPECT_EQ(count(xml, "</failure>"), 3u);
  EXPECT_EQ(xml.find("message=\"corpus | elementwise"), std::string::npos);  // the known one is not a failure
  const size_t out = xml.find("<system-out>");
  ASSERT_NE(out, std::string::npos);
  EXPECT_NE(xml.find("declared-k", out), std::string::npos);
  EXPECT_NE(xml.find("type=\"expect_failed\""), std::string::npos);
}

TEST(JunitXml, TestCasesPerPropertyAndFamily) {
  const std::string xml = junit_xml(sample_summary());
  // broadcast_symmetric: elementwise, matmul; corpus: elementwise (known, passing); inplace_rule: all.
  EXPECT_EQ(count(xml, "<testcase "), 4u);
  EXPECT_EQ(closed_testcases(xml), 4u);
  EXPECT_EQ(count(xml, "<testsuite "), 3u);
  EXPECT_EQ(count(xml, "</testsuite>"), 3u);
  EXPECT_NE(xml.find("<testcase name=\"inplace_rule/all\""), std::string::npos);
  EXPECT_NE(xml.find("<testcase name=\"broadcast_symmetric/matmul\""), std::string::npos);
  EXPECT_NE(xml.find("<testsuites name=\"broadcheck\" tests=\"4\" failures=\"2\" errors=\"0\" time=\"10.000\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"broadcast_symmetric\" tests=\"2\" failures=\"2\" errors=\"0\" skipped=\"0\" "
                     "time=\"6.000\""),
            std::string::npos);
}

TEST(JunitXml, EscapesMessagesAndIsBalanced) {
  const std::string xml = junit_xml(sample_summary());
  EXPECT_NE(xml.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;q&apos;"), std::string::npos);
  EXPECT_EQ(xml.find("<script"), std::string::npos);
  EXPECT_NE(xml.find("&lt;b&gt;note&lt;/b&gt;"), std::string::npos);  // inside the minimal case JSON
  EXPECT_EQ(check_balanced(xml), "");
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
}

TEST(JunitXml, BalanceCheckerCatchesBrokenDocuments) {
  EXPECT_NE(check_balanced("<a><b></a>"), "");
  EXPECT_NE(check_balanced("<a>x & y</a>"), "");
  EXPECT_NE(check_balanced("<a m=\"<\"/>"), "");
  EXPECT_EQ(check_balanced("<a m=\"&lt;\"><b/></a>"), "");
}

TEST(JunitXml, ReplacesCharactersXmlCannotCarry) {
  RunSummary s = sample_summary();
  s.findings[0].minimal.outcomes[1].second.error->message = std::string("bell\x07 bad\xff utf8 \xc3\xa9");
  const std::string xml = junit_xml(s);
  EXPECT_EQ(xml.find('\x07'), std::string::npos);
  EXPECT_EQ(xml.find('\xff'), std::string::npos);
  EXPECT_NE(xml.find("bell\\x07 bad\xEF\xBF\xBD utf8 \xc3\xa9"), std::string::npos);
  EXPECT_EQ(check_balanced(xml), "");
}

TEST(JunitXml, RunWithoutFindingsPassesEveryProperty) {
  RunSummary s = sample_summary();
  s.findings.clear();
  const std::string xml = junit_xml(s);
  EXPECT_EQ(count(xml, "<failure"), 0u);
  EXPECT_EQ(count(xml, "<testcase "), 3u);
  EXPECT_NE(xml.find("<testcase name=\"corpus/all\""), std::string::npos);
  EXPECT_EQ(check_balanced(xml), "");
}

TEST(JunitXml, WriteFailureNamesThePath) {
  const std::string path = "/nonexistent-dir-for-broadcheck/junit.xml";
  try {
    write_junit(sample_summary(), path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& err) {
    EXPECT_NE(std::string(err.what()).find(path), std::string::npos);
  }
}

}  // namespace
}  // namespace bc
