// junit.xml: one test case per signature with a stable name, a failure per new one and none for known ones, an
// agreement case per property, input errors and interruption as errors, stale declarations as skipped, escaping,
// counts, a document whose tags all balance (a small tag walker) and that the JUnit schema accepts (xmllint).
#include "reports/junit_writer.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "reports/xml_escape.h"
#include "test_paths.h"

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
  f.minimal.c.op = family == "matmul" ? Op::matmul : Op::add;
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
  f.shrunk = true;
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

// A failure says how far its finding was shrunk, or that it was not (under --shrink none: run/run_options.h).
TEST(JunitXml, SaysWhetherAFindingWasShrunk) {
  RunSummary s = sample_summary();
  s.findings[0].shrunk = false;
  s.findings[0].shrink_steps = 0;
  const std::string xml = junit_xml(s);
  EXPECT_EQ(count(xml, "shrunk in 2 step(s)"), 2u);
  EXPECT_EQ(count(xml, "raw case(s); not shrunk"), 1u);
  // A known finding, unshrunk by default, shows its first case as such.
  EXPECT_EQ(count(xml, "-- minimal case add("), 1u);
  s.findings[3].shrunk = false;
  EXPECT_EQ(count(junit_xml(s), "-- first case (not shrunk) add("), 1u);
}

// Test case names of a document, as "classname name" pairs, in document order.
std::vector<std::string> testcase_names(const std::string& xml) {
  std::vector<std::string> out;
  for (size_t at = xml.find("<testcase name=\""); at != std::string::npos; at = xml.find("<testcase name=\"", at + 1)) {
    const size_t name = at + 16, name_end = xml.find('"', name);
    const size_t cls = xml.find("classname=\"", name_end) + 11, cls_end = xml.find('"', cls);
    out.push_back(xml.substr(cls, cls_end - cls) + " " + xml.substr(name, name_end - name));
  }
  return out;
}

TEST(JunitXml, OneTestCasePerSignatureAndAnAgreementCasePerProperty) {
  const RunSummary s = sample_summary();
  const std::string xml = junit_xml(s);
  EXPECT_EQ(testcase_names(xml),
            (std::vector<std::string>{"broadcheck.broadcast_symmetric agreement",
                                      "broadcheck.broadcast_symmetric " + xml_escape(s.findings[0].signature, true),
                                      "broadcheck.broadcast_symmetric " + xml_escape(s.findings[1].signature, true),
                                      "broadcheck.broadcast_symmetric " + xml_escape(s.findings[2].signature, true),
                                      "broadcheck.corpus agreement",
                                      "broadcheck.corpus " + xml_escape(s.findings[3].signature, true),
                                      "broadcheck.inplace_rule agreement", "broadcheck.run corpus input",
                                      "broadcheck.run completed"}));
  EXPECT_EQ(closed_testcases(xml), 9u);
  // 600 cases, 3 signatures of 4 hits each: 588 agree. The known one passes.
  EXPECT_NE(xml.find("<system-out>588 of 600 case(s) agree; 3 signature(s) disagree\n</system-out>"), std::string::npos);
  EXPECT_NE(xml.find("<testsuites name=\"broadcheck\" tests=\"9\" failures=\"3\" errors=\"0\" skipped=\"0\" "
                     "time=\"10.000\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"broadcast_symmetric\" tests=\"4\" failures=\"3\" errors=\"0\" skipped=\"0\" "
                     "time=\"6.000\" timestamp=\"2024-05-01T12:00:00\""),
            std::string::npos);
}

// CI keeps a test's history by its name: the names follow the signatures, not the hits, cases or order.
TEST(JunitXml, NamesDoNotDependOnCountsOrDiscoveryOrder) {
  RunSummary a = sample_summary(), b = sample_summary();
  std::reverse(b.findings.begin(), b.findings.end());
  for (Finding& f : b.findings) f.hits = 90;
  b.cases_per_property["broadcast_symmetric"] = 5000;
  b.seconds = 99;
  EXPECT_EQ(testcase_names(junit_xml(a)), testcase_names(junit_xml(b)));
  b.findings.erase(b.findings.begin());  // a finding that no longer comes up takes only its own test case away
  std::vector<std::string> names = testcase_names(junit_xml(a));
  names.erase(std::find(names.begin(), names.end(), "broadcheck.corpus " + xml_escape(a.findings[3].signature, true)));
  EXPECT_EQ(testcase_names(junit_xml(b)), names);
}

// A voter joining the run adds its outcome class to every judge's signature; the test names must stay (issue 36).
TEST(JunitXml, NamesDoNotChangeWhenAVoterJoins) {
  RunSummary three = sample_summary();
  for (Finding& f : three.findings) f.signature += " | engine=error:broadcast torch=error:other xtensor=ok";
  RunSummary four = three;
  for (Finding& f : four.findings) f.signature += " numpy=ok";
  const std::vector<std::string> names = testcase_names(junit_xml(three));
  EXPECT_EQ(testcase_names(junit_xml(four)), names);
  for (const std::string& name : names) EXPECT_EQ(name.find('='), std::string::npos) << name;
  // Two signatures that differ only in the outcome classes are one test; its failure lists both.
  four.findings[1].signature = three.findings[0].signature + " numpy=error:other";
  four.findings[0].signature = three.findings[0].signature + " numpy=ok";
  const std::string xml = junit_xml(four);
  EXPECT_EQ(testcase_names(xml).size(), names.size() - 1) << xml;
  EXPECT_EQ(count(xml, "signature: " + xml_escape(four.findings[0].signature)), 1u) << xml;
  EXPECT_EQ(count(xml, "signature: " + xml_escape(four.findings[1].signature)), 1u) << xml;
}

TEST(JunitXml, InputErrorsAndAnInterruptedRunAreErrors) {
  RunSummary s = sample_summary();
  s.input_errors = {"corpus/bad.jsonl:3: unknown op \"addd\"", "corpus/bad.jsonl:4: not valid JSON"};
  s.interrupted = true;
  s.signal = 15;
  const std::string xml = junit_xml(s);
  EXPECT_NE(xml.find("<error message=\"2 input error(s)\" type=\"input_error\">corpus/bad.jsonl:3: "
                     "unknown op &quot;addd&quot;\ncorpus/bad.jsonl:4: not valid JSON\n</error>"),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("<error message=\"interrupted by signal 15 before its budget was spent"), std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"run\" tests=\"2\" failures=\"0\" errors=\"2\" skipped=\"0\""),
            std::string::npos);
  EXPECT_NE(xml.find("tests=\"9\" failures=\"3\" errors=\"2\" skipped=\"0\""), std::string::npos);
}

TEST(JunitXml, AnInternalErrorIsAnErrorOfTheRun) {
  RunSummary s = sample_summary();
  s.internal_error = "results.jsonl: disk full";
  s.interrupted = true;  // the internal error is what CI must see
  s.signal = 15;
  const std::string xml = junit_xml(s);
  EXPECT_NE(xml.find("<error message=\"internal error: results.jsonl: disk full; the reports cover what ran\" "
                     "type=\"internal_error\">"),
            std::string::npos) << xml;
  EXPECT_EQ(xml.find("type=\"interrupted\""), std::string::npos) << xml;
}

TEST(JunitXml, StaleDeclarationsAreSkippedAndUsedOnesPass) {
  RunSummary s = sample_summary();
  DeclarationUse stale, used, idle;
  stale.declaration.id = "xt-stale";
  stale.declaration.reason = "xtensor resizes";
  stale.covered = 12;
  used.declaration.id = "xt-used";
  used.covered = 5;
  used.matched = 2;
  idle.declaration.id = "xt-idle";  // in no case's scope: nothing to say about it
  s.declarations = {stale, used, idle};
  const std::string xml = junit_xml(s);
  EXPECT_NE(xml.find("<testcase name=\"xt-stale\" classname=\"broadcheck.declarations\" time=\"0.000\">\n      "
                     "<skipped message=\"stale: covered 12 case(s), explained 0 (the divergence may be fixed)\" "
                     "type=\"stale\">xtensor resizes\n</skipped>"),
            std::string::npos) << xml;
  EXPECT_NE(xml.find("<testcase name=\"xt-used\" classname=\"broadcheck.declarations\" time=\"0.000\">\n      "
                     "<system-out>covered 5 case(s), explained 2\n</system-out>"),
            std::string::npos) << xml;
  EXPECT_EQ(xml.find("xt-idle"), std::string::npos);
  EXPECT_NE(xml.find("tests=\"11\" failures=\"3\" errors=\"0\" skipped=\"1\""), std::string::npos);
}

// xmllint --schema tests/reports/junit.xsd (libxml2-utils); "" when valid, else xmllint's words.
std::string schema_problems(const std::string& xml) {
  const std::string dir = ::testing::TempDir();
  const std::string file = dir + "/junit-schema-test.xml", log = dir + "/junit-schema-test.log";
  std::ofstream(file) << xml;
  const std::string cmd =
      "xmllint --noout --schema " + bc::test_source_dir() + "/tests/reports/junit.xsd " + file + " > " + log + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "xmllint is missing: install libxml2-utils";
  return status == 0 ? "" : text.str();
}

TEST(JunitXml, ValidatesAgainstTheJunitSchema) {
  RunSummary s = sample_summary();
  s.input_errors = {"corpus/bad.jsonl:3: bad \x01 line \xff"};
  s.interrupted = true;
  s.signal = 2;
  DeclarationUse stale;
  stale.declaration.id = "xt-stale";
  stale.covered = 1;
  s.declarations = {stale};
  EXPECT_EQ(schema_problems(junit_xml(s)), "");
  EXPECT_EQ(schema_problems(junit_xml(RunSummary{})), "") << "an empty run";
  // The schema is not a rubber stamp: two failures in one test case, a count that is not a number, a missing name.
  const std::string head = "<testsuites name=\"b\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"1\">"
                           "<testsuite name=\"p\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"1\">";
  const std::string tail = "</testsuite></testsuites>";
  EXPECT_EQ(schema_problems(head + "<testcase name=\"t\" classname=\"c\" time=\"0\"/>" + tail), "");
  EXPECT_NE(schema_problems(head + "<testcase name=\"t\" classname=\"c\" time=\"0\"><failure message=\"a\" "
                                   "type=\"b\"/><failure message=\"a\" type=\"b\"/></testcase>" + tail), "");
  EXPECT_NE(schema_problems("<testsuites name=\"b\" tests=\"x\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"1\"/>"), "");
  EXPECT_NE(schema_problems(head + "<testcase classname=\"c\" time=\"0\"/>" + tail), "");
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
  // U+FFFE and U+FFFF are well-formed UTF-8 but no XML characters.
  s.findings[0].minimal.outcomes[1].second.error->message =
      std::string("bell\x07 bad\xff utf8 \xc3\xa9 non\xEF\xBF\xBE\xEF\xBF\xBF");
  const std::string xml = junit_xml(s);
  EXPECT_EQ(xml.find('\x07'), std::string::npos);
  EXPECT_EQ(xml.find('\xff'), std::string::npos);
  EXPECT_NE(xml.find("bell\\x07 bad\xEF\xBF\xBD utf8 \xc3\xa9 non\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
                     "\xEF\xBF\xBD\xEF\xBF\xBD"),
            std::string::npos) << xml;
  EXPECT_EQ(check_balanced(xml), "");
}

TEST(JunitXml, RunWithoutFindingsPassesEveryProperty) {
  RunSummary s = sample_summary();
  s.findings.clear();
  const std::string xml = junit_xml(s);
  EXPECT_EQ(count(xml, "<failure"), 0u);
  EXPECT_EQ(count(xml, "<testcase "), 5u);  // three agreement cases, corpus input, completed
  EXPECT_NE(xml.find("<testcase name=\"agreement\" classname=\"broadcheck.corpus\""), std::string::npos);
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
