// junit.xml: the run as CI test reporters (GitLab, Jenkins, GitHub test-reporter actions) read it; it validates
// against tests/reports/junit.xsd (the structure of the common JUnit.xsd: at most one failure, error or skipped
// element per test case).
//
// Contract (test names never depend on counts or discovery order, so that a CI's test history follows them):
//  - root <testsuites name="broadcheck" tests failures errors skipped time>; one <testsuite> per property (the
//    properties of summary.cases_per_property plus any property a finding names, "corpus" for replayed cases),
//    sorted by name, carrying seed, command, cases and versions as <properties>; then a suite "run" and, when a
//    declaration was in scope, a suite "declarations";
//  - in a property's suite: a passing test case "agreement" whose <system-out> gives its agreeing count, then one
//    test case per finding signature without the voters' outcome classes (harness/judge.h,
//    signature_without_outcomes: adding a voter must not rename every test), sorted by name: a new finding makes
//    it a <failure message="SIGNATURE" type="VERDICT"> (the first new finding's whole signature; body: signature,
//    minimal case as text and JSON, original case, each oracle's outcome and message, attribution, hits, replay and
//    reproduce commands, regression draft; further new findings under the same name, from the corpus or with
//    other outcome classes, follow in the same body); known divergences under the name are listed in its
//    <system-out> and do not fail it;
//  - suite "run": test case "corpus input", an <error type="input_error"> listing every refused corpus line when
//    there is one; test case "completed", an <error type="internal_error"> when broadcheck itself failed, else an
//    <error type="interrupted"> when a signal stopped the run;
//  - suite "declarations": one test case "DECLARATION-ID" per declaration that covered a case: <skipped
//    type="stale"> when it explained none (the divergence may be fixed; a <failure type="stale"> under
//    --fail-on-stale), passing otherwise;
//  - "tests" counts test cases, "failures", "errors" and "skipped" those with such an element; a property's time
//    apportions summary.seconds by its number of cases and goes to its "agreement" test case; the timestamp is
//    the start in UTC without a zone (the schema's form);
//  - every text from data is escaped (reports/xml_escape.h), so that the file always parses.
#include "reports/junit_writer.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <stdexcept>

#include "harness/signature.h"
#include "reports/text_file.h"
#include "reports/xml_escape.h"

namespace bc {

namespace {

std::string seconds_text(double s) { return fmt::format("{:.3f}", s < 0 ? 0.0 : s); }

std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The failure body: plain text, one fact per line, read in a CI log viewer.
std::string failure_body(const Finding& f) {
  const CaseRecord& m = f.minimal;
  std::string body;
  body += "signature: " + f.signature + "\n";
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
  body += "attribution: " + (m.judgement.attribution.empty() ? std::string("(none)") : m.judgement.attribution) + "\n";
  body += f.shrunk ? fmt::format("hits: {} raw case(s); shrunk in {} step(s)\n", f.hits, f.shrink_steps)
                   : fmt::format("hits: {} raw case(s); not shrunk\n", f.hits);
  if (!f.replay_command.empty()) body += "replay: " + f.replay_command + "\n";
  if (!f.reproduce_command.empty()) body += "reproduce: " + f.reproduce_command + "\n";
  for (const auto& [adapter, command] : f.adapter_commands) body += adapter + " adapter alone: " + command + "\n";
  if (!f.regression_draft.empty()) body += "regression-test draft:\n" + f.regression_draft;
  return body;
}

// A known divergence, or a finding that did not come out alike in fresh workers (system-out, not a failure).
std::string known_line(const Finding& f) {
  if (!f.reproduction.stable())
    return fmt::format("{}: {} -- minimal case {} -- {} hit(s)\n", describe(f.reproduction), f.signature,
                       describe(f.minimal.c), f.hits);
  return fmt::format("known divergence {}: {} -- {} {} -- {} hit(s)\n", f.known_id, f.signature,
                     f.shrunk ? "minimal case" : "first case (not shrunk)", describe(f.minimal.c), f.hits);
}

struct Counts {
  long tests = 0, failures = 0, errors = 0, skipped = 0;
  void add(const Counts& c) {
    tests += c.tests;
    failures += c.failures;
    errors += c.errors;
    skipped += c.skipped;
  }
};

// One test case: `outcome` is "" (passing) or a failure, error or skipped element.
std::string testcase(const std::string& classname, const std::string& name, double seconds, const std::string& outcome,
                     const std::string& system_out, Counts& counts) {
  ++counts.tests;
  if (outcome.rfind("<failure", 0) == 0) ++counts.failures;
  if (outcome.rfind("<error", 0) == 0) ++counts.errors;
  if (outcome.rfind("<skipped", 0) == 0) ++counts.skipped;
  std::string out = fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{}\"", xml_escape(name, true),
                                xml_escape(classname, true), seconds_text(seconds));
  if (outcome.empty() && system_out.empty()) return out + "/>\n";
  out += ">\n";
  if (!outcome.empty()) out += "      " + outcome + "\n";
  if (!system_out.empty()) out += "      <system-out>" + xml_escape(system_out) + "</system-out>\n";
  return out + "    </testcase>\n";
}

std::string element(const char* tag, const std::string& message, const std::string& type, const std::string& text) {
  return fmt::format("<{} message=\"{}\" type=\"{}\">{}</{}>", tag, xml_escape(message, true), xml_escape(type, true),
                     xml_escape(text), tag);
}

std::string suite(const std::string& name, const Counts& c, double seconds, const std::string& timestamp,
                  const std::string& properties, const std::string& cases) {
  std::string out =
      fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\"",
                  xml_escape(name, true), c.tests, c.failures, c.errors, c.skipped, seconds_text(seconds));
  if (!timestamp.empty()) out += " timestamp=\"" + xml_escape(timestamp, true) + "\"";
  out += ">\n";
  if (!properties.empty()) out += "    <properties>\n" + properties + "    </properties>\n";
  return out + cases + "  </testsuite>\n";
}

std::string property_line(const std::string& name, const std::string& value) {
  return "      <property name=\"" + xml_escape(name, true) + "\" value=\"" + xml_escape(value, true) + "\"/>\n";
}

// The start time as the schema's timestamp: ISO 8601 without a zone (it is UTC).
std::string timestamp_of(const std::string& started_at) {
  return !started_at.empty() && started_at.back() == 'Z' ? started_at.substr(0, started_at.size() - 1) : started_at;
}

struct SignatureCase {
  std::vector<const Finding*> fresh, known;
};

}  // namespace

std::string junit_xml(const RunSummary& summary) {
  // property -> test name -> findings
  std::map<std::string, std::map<std::string, SignatureCase>> suites;
  for (const auto& [property, cases] : summary.cases_per_property) suites[property];
  for (const Finding& f : summary.findings) {
    SignatureCase& t = suites[f.property][signature_without_outcomes(f.signature)];
    (f.is_new() ? t.fresh : t.known).push_back(&f);
  }
  long total_cases = 0;
  for (const auto& [property, n] : summary.cases_per_property) total_cases += n;
  const auto cases_of = [&](const std::string& property) {
    auto it = summary.cases_per_property.find(property);
    return it == summary.cases_per_property.end() ? 0L : it->second;
  };
  std::string common;
  common += property_line("seed", std::to_string(summary.seed));
  common += property_line("command", summary.command);
  std::string versions;
  for (const auto& [name, version] : summary.versions) versions += property_line("version." + name, version);
  const std::string timestamp = timestamp_of(summary.started_at);

  Counts all;
  std::string body;
  for (const auto& [property, signatures] : suites) {
    Counts c;
    const long cases = cases_of(property);
    const double seconds = total_cases > 0 ? summary.seconds * static_cast<double>(cases) / total_cases : 0.0;
    const std::string classname = "broadcheck." + property;
    std::string tests;
    // Per-property agreement comes from the findings' hits: the cases that did not make a finding agreed.
    long disagreeing = 0;
    std::set<std::string> distinct;  // signatures, with their outcome classes
    for (const auto& [name, t] : signatures)
      for (const auto* group : {&t.fresh, &t.known})
        for (const Finding* f : *group) disagreeing += f->hits, distinct.insert(f->signature);
    const long agreeing = cases - disagreeing;
    tests += testcase(
        classname, "agreement", seconds, "",
        fmt::format("{} of {} case(s) agree; {} signature(s) disagree\n", agreeing, cases, distinct.size()), c);
    for (const auto& [name, t] : signatures) {
      std::string outcome;
      if (!t.fresh.empty()) {
        std::string text;
        for (const Finding* f : t.fresh) text += (text.empty() ? "" : "\n") + failure_body(*f);
        outcome = element("failure", t.fresh.front()->signature, to_string(t.fresh.front()->verdict), text);
      }
      std::string known;
      for (const Finding* f : t.known) known += known_line(*f);
      tests += testcase(classname, name, 0.0, outcome, known, c);
    }
    body += suite(property, c, seconds, timestamp, common + property_line("cases", std::to_string(cases)) + versions,
                  tests);
    all.add(c);
  }

  {
    Counts c;
    std::string tests;
    std::string input;
    for (const std::string& e : summary.input_errors) input += e + "\n";
    tests +=
        testcase("broadcheck.run", "corpus input", 0.0,
                 input.empty()
                     ? ""
                     : element("error", fmt::format("{} input error(s)", summary.input_errors.size()),
                               "input_error", input),
                 "", c);
    // The run did not get through: an internal error (which outranks an interrupt, as in the exit code) or a signal.
    std::string stop;
    if (!summary.internal_error.empty()) {
      const std::string why = "internal error: " + summary.internal_error + "; the reports cover what ran";
      stop = element("error", why, "internal_error", why + "\n");
    } else if (summary.interrupted) {
      const std::string why =
          fmt::format("interrupted by signal {} before its budget was spent; the reports cover what ran", summary.signal);
      stop = element("error", why, "interrupted", why + "\n");
    }
    tests += testcase("broadcheck.run", "completed", 0.0, stop, "", c);
    body += suite("run", c, 0.0, timestamp, common, tests);
    all.add(c);
  }

  Counts d;
  std::string declarations;
  for (const DeclarationUse& u : summary.declarations) {
    if (u.covered == 0) continue;
    const std::string use = fmt::format("covered {} case(s), explained {}", u.covered, u.matched);
    declarations += testcase("broadcheck.declarations", u.declaration.id, 0.0,
                             !u.stale() ? ""
                             // Under --fail-on-stale a stale declaration fails the run, so it is a failure here.
                             : summary.fail_on_stale
                                 ? element("failure", "stale under --fail-on-stale: " + use, "stale", u.declaration.reason + "\n")
                                 : element("skipped", "stale: " + use + " (the divergence may be fixed)", "stale",
                                           u.declaration.reason + "\n"),
                             u.stale() ? "" : use + "\n", d);
  }
  if (d.tests > 0) {
    body += suite("declarations", d, 0.0, timestamp, common, declarations);
    all.add(d);
  }

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(
      "<testsuites name=\"broadcheck\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">\n",
      all.tests, all.failures, all.errors, all.skipped, seconds_text(summary.seconds));
  out += body;
  out += "</testsuites>\n";
  return out;
}

void write_junit(const RunSummary& summary, const std::string& path) { write_text_file(path, junit_xml(summary)); }

}  // namespace bc
