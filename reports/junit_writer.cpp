// junit.xml: the run as CI test reporters (GitLab, Jenkins, GitHub test-reporter actions) read it.
//
// Contract:
//  - root <testsuites name="broadcheck" tests failures errors time>; one <testsuite> per property (the properties
//    of summary.cases_per_property plus any property a finding names), sorted by name;
//  - inside a suite, one <testcase> per op family that has a finding (new or known) for that property, sorted by
//    family; a property without any finding gets one passing test case with family "all";
//  - each NEW finding (Finding::is_new()) is one <failure message="SIGNATURE" type="VERDICT"> in its test case,
//    whose body gives the minimal case (describe() and JSON), the original case, each oracle's outcome summary
//    and message, the attribution and the hit count; a test case may therefore hold several <failure> elements;
//  - known divergences are not failures: they are listed in the test case's <system-out>;
//  - "tests" counts test cases, "failures" counts failing test cases; times apportion summary.seconds over the
//    properties by their number of cases (the run does not time properties one by one);
//  - every text from data is escaped; characters XML 1.0 cannot carry (control characters, malformed UTF-8) are
//    replaced, so that the file always parses.
#include "reports/junit_writer.h"

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "reports/text_file.h"

namespace bc {

namespace {

// Length of the valid UTF-8 sequence starting at s[i] that XML may carry, or 0.
size_t valid_utf8_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  size_t len = 0;
  uint32_t cp = 0;
  if (b0 < 0x80) return 1;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < smallest[len] || cp > 0x10FFFF) return 0;                     // overlong or out of range
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) return 0;  // not XML characters
  return len;
}

// Escapes text for XML element content, or for a double- or single-quoted attribute when `attribute` is set
// (line breaks and tabs are then written as character references, so that parsers keep them).
std::string xml_escape(std::string_view text, bool attribute = false) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (size_t i = 0; i < text.size();) {
    const char ch = text[i];
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&apos;"; ++i; continue;
      case '\n': out += attribute ? "&#10;" : "\n"; ++i; continue;
      case '\r': out += attribute ? "&#13;" : "\r"; ++i; continue;
      case '\t': out += attribute ? "&#9;" : "\t"; ++i; continue;
      default: break;
    }
    if (u < 0x20) {  // not allowed in XML 1.0, not even as a character reference: write it out readably
      out += fmt::format("\\x{:02X}", static_cast<unsigned>(u));
      ++i;
      continue;
    }
    const size_t len = valid_utf8_length(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string seconds_text(double s) { return fmt::format("{:.3f}", s < 0 ? 0.0 : s); }

std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string family_of(const Finding& f) { return f.family.empty() ? "unknown" : f.family; }

// The failure body: plain text, one fact per line, read in a CI log viewer.
std::string failure_body(const Finding& f) {
  const CaseRecord& m = f.minimal;
  std::string body;
  body += "verdict: " + std::string(to_string(f.verdict)) + "\n";
  body += "minimal case: " + describe(m.c) + "\n";
  body += "minimal case JSON: " + json_text(to_json(m.c)) + "\n";
  body += "original case: " + describe(f.original) + "\n";
  for (const auto& [oracle, outcome] : m.outcomes) {
    body += oracle + ": " + summarize(outcome);
    if (outcome.error && !outcome.error->message.empty()) body += " -- " + outcome.error->message;
    if (!outcome.detail.empty()) body += " (" + outcome.detail + ")";
    body += "\n";
  }
  if (m.c.expect) body += "expected by the case: " + json_text(to_json(*m.c.expect)) + "\n";
  if (!m.judgement.difference.empty()) body += "first difference: " + m.judgement.difference + "\n";
  body += "attribution: " + (m.judgement.attribution.empty() ? std::string("(none)") : m.judgement.attribution) +
          "\n";
  body += fmt::format("hits: {} raw case(s); shrunk in {} step(s)\n", f.hits, f.shrink_steps);
  if (!f.replay_command.empty()) body += "replay: " + f.replay_command + "\n";
  if (!f.reproduce.empty()) body += "reproduce: build/broadcheck replay --reproduce " + f.reproduce + "\n";
  if (!f.regression_draft.empty()) body += "regression-test draft:\n" + f.regression_draft;
  return body;
}

std::string known_line(const Finding& f) {
  return fmt::format("known divergence {}: {} -- minimal case {} -- {} hit(s)\n", f.known_id, f.signature,
                     describe(f.minimal.c), f.hits);
}

struct TestCase {
  std::string family;
  std::vector<const Finding*> failures;  // new findings
  std::vector<const Finding*> known;     // known divergences
};

void write_testcase(std::string& out, const std::string& property, const TestCase& t, double seconds) {
  out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"", xml_escape(property + "/" + t.family, true),
                     xml_escape("broadcheck." + property, true), seconds_text(seconds));
  if (t.failures.empty() && t.known.empty()) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  for (const Finding* f : t.failures)
    out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", xml_escape(f->signature, true),
                       xml_escape(to_string(f->verdict), true), xml_escape(failure_body(*f)));
  if (!t.known.empty()) {
    std::string text;
    for (const Finding* f : t.known) text += known_line(*f);
    out += "      <system-out>" + xml_escape(text) + "</system-out>\n";
  }
  out += "    </testcase>\n";
}

}  // namespace

std::string junit_xml(const RunSummary& summary) {
  // property -> family -> test case
  std::map<std::string, std::map<std::string, TestCase>> suites;
  for (const auto& [property, cases] : summary.cases_per_property) suites[property];
  for (const Finding& f : summary.findings) {
    TestCase& t = suites[f.property][family_of(f)];
    t.family = family_of(f);
    (f.is_new() ? t.failures : t.known).push_back(&f);
  }
  for (auto& [property, cases] : suites)
    if (cases.empty()) cases["all"].family = "all";

  long total_cases = 0;
  for (const auto& [property, n] : summary.cases_per_property) total_cases += n;
  const auto suite_seconds = [&](const std::string& property) {
    if (total_cases <= 0) return 0.0;
    auto it = summary.cases_per_property.find(property);
    return it == summary.cases_per_property.end() ? 0.0 : summary.seconds * it->second / total_cases;
  };

  long tests = 0, failures = 0;
  std::string body;
  for (const auto& [property, cases] : suites) {
    long suite_failures = 0;
    for (const auto& [family, t] : cases) suite_failures += t.failures.empty() ? 0 : 1;
    const double seconds = suite_seconds(property);
    body += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{}\"",
                        xml_escape(property, true), cases.size(), suite_failures, seconds_text(seconds));
    if (!summary.started_at.empty()) body += " timestamp=\"" + xml_escape(summary.started_at, true) + "\"";
    body += ">\n    <properties>\n";
    body += fmt::format("      <property name=\"seed\" value=\"{}\"/>\n", summary.seed);
    body += "      <property name=\"command\" value=\"" + xml_escape(summary.command, true) + "\"/>\n";
    auto it = summary.cases_per_property.find(property);
    body += fmt::format("      <property name=\"cases\" value=\"{}\"/>\n",
                        it == summary.cases_per_property.end() ? 0L : it->second);
    for (const auto& [name, version] : summary.versions)
      body += "      <property name=\"" + xml_escape("version." + name, true) + "\" value=\"" +
              xml_escape(version, true) + "\"/>\n";
    body += "    </properties>\n";
    for (const auto& [family, t] : cases)
      write_testcase(body, property, t, seconds / static_cast<double>(cases.size()));
    body += "  </testsuite>\n";
    tests += static_cast<long>(cases.size());
    failures += suite_failures;
  }

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"broadcheck\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{}\">\n", tests,
                     failures, seconds_text(summary.seconds));
  out += body;
  out += "</testsuites>\n";
  return out;
}

void write_junit(const RunSummary& summary, const std::string& path) { write_text_file(path, junit_xml(summary)); }

}  // namespace bc
