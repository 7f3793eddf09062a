// report.html, the page: the verdict, the findings (finding_html.h) behind a filter bar, new before known, then the
// summary and the run, coverage (coverage_html.h), declarations, input errors; style and script: html_assets.h.
#include "reports/html_report.h"

#include "harness/implementations.h"
#include "harness/shell_quote.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "reports/coverage_html.h"
#include "reports/finding_html.h"
#include "reports/html_assets.h"
#include "reports/text_file.h"
#include "reports/verdict.h"

namespace bc {
namespace {

std::string e(const std::string& s) { return html_escape(s); }

// The findings in page order (new before known, otherwise as the summary lists them); a finding's block is
// "finding-N" with N its position here plus one.
using Ordered = std::vector<const Finding*>;

std::string duration_text(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const long whole = static_cast<long>(seconds);
  return fmt::format("{:.1f} s ({}h {:02}m {:02}s)", seconds, whole / 3600, whole / 60 % 60, whole % 60);
}

long count_of(const std::map<std::string, long>& counts, const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

// Outcomes with this status ("crash", "timeout", ...) over every oracle.
long status_count(const RunSummary& s, const std::string& status) {
  long n = 0;
  for (const auto& [key, count] : s.statuses)
    if (key.size() > status.size() && key.compare(key.size() - status.size() - 1, std::string::npos, ":" + status) == 0)
      n += count;
  return n;
}

// The run's result in words (reports/verdict.h), styled by whether it passed.
std::string verdict_line(const RunSummary& s) {
  const bool failed = !verdict_passed(s) && !(s.interrupted && s.exit_code > 3);
  return fmt::format("<p class=\"verdict{}\">{}</p>\n", verdict_passed(s) ? " passed" : failed ? " failed" : "",
                     html_escape(verdict_text(s)));
}

std::string version_label(const std::string& name) {
  if (name == "broadcheck") return "broadcheck commit";
  const std::string title = title_of(name);
  return title == name ? name : title + " (" + name + ")";
}

// Each implementation's standing per op family: what it ran, and whether it agreed or departed (declared or new).
void scoreboard_table(std::string& out, const Scoreboard& board) {
  if (board.empty()) return;
  out += "<div class=\"wide\"><table class=\"scoreboard\">"
         "<caption>scoreboard: each implementation by op family (cases)</caption>\n"
         "<tr><th>implementation</th><th>family</th><th class=\"num\">run</th><th class=\"num\">agree</th>"
         "<th class=\"num\">known</th><th class=\"num\">new</th><th class=\"num\">unsupported</th></tr>\n";
  for (const auto& [name, families] : board)
    for (const auto& [family, s] : families)
      out += fmt::format("<tr><th>{}</th><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                         "<td class=\"num\">{}</td><td class=\"num{}\">{}</td><td class=\"num\">{}</td></tr>\n",
                         e(version_label(name)), e(family), s.run, s.agree, s.known, s.fresh > 0 ? " odd" : "",
                         s.fresh, s.unsupported);
  out += "</table></div>\n";
}

void count_table(std::string& out, const std::string& caption, const std::vector<std::pair<std::string, long>>& rows) {
  out += "<table><caption>" + e(caption) + "</caption>\n";
  for (const auto& [key, n] : rows) out += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td></tr>\n", e(key), n);
  out += "</table>\n";
}

// The run's facts: when, how long, the command line, the seed, the exit code and the versions.
void run_table(std::string& out, const RunSummary& s) {
  out += "<div class=\"wide\"><table class=\"run\"><caption>the run</caption>\n";
  const auto row = [&](const std::string& key, const std::string& value_html) {
    out += "<tr><th>" + e(key) + "</th><td>" + value_html + "</td></tr>\n";
  };
  row("started", e(s.started_at.empty() ? "(unknown)" : s.started_at));
  row("duration", e(duration_text(s.seconds)));
  row("command line", "<code>" + e(shell_words(s.arguments)) + "</code>");
  row("seed", fmt::format("<code>{}</code>", s.seed));
  row("cases per property",
      s.cases_requested > 0 ? fmt::format("{} generated", s.cases_requested) : std::string("none generated"));
  row("exit code", fmt::format("{}", s.exit_code));
  if (!s.shard.empty()) row("shard", "<code>" + e(s.shard) + "</code>");
  if (s.interrupted) row("INTERRUPTED", "the run was stopped by a signal; this report covers what ran");
  for (const std::string& death : s.job_deaths) row("JOB DIED", e(death));
  for (const auto& [name, version] : s.versions) row(version_label(name), "<code>" + e(version) + "</code>");
  out += "</table></div>\n";
}

// The verdict and the counts behind it; the run's facts follow the findings (summary_section).
void header_section(std::string& out, const RunSummary& s) {
  out += "<header><h1>broadcheck report</h1>\n" + verdict_line(s) + "<div class=\"counts\">\n";
  count_table(out, "cases by outcome",
              {{"agreements", count_of(s.verdicts, "agree")},
               {"new discrepancies", count_of(s.verdicts, "discrepancy")},
               {"failed expectations (new)", count_of(s.verdicts, "expect_failed")},
               {"known divergences", count_of(s.verdicts, "known")},
               {"crashes (any implementation)", status_count(s, "crash")},
               {"timeouts (any implementation)", status_count(s, "timeout")}});
  // No timing or command line here (the run table has them): runs that differ only there read the same.
  long cases = 0;
  for (const auto& [verdict, n] : s.verdicts) cases += n;
  out += fmt::format("<p class=\"run-line\">{} case(s) · seed <code>{}</code> · exit code {} · the run's details "
                     "follow the findings (<a href=\"#summary\">summary and the run</a>)</p>\n",
                     cases, s.seed, s.exit_code);
  out += "</div></header>\n";
  out += "<nav>Sections: <a href=\"#findings\">findings</a> · <a href=\"#summary\">summary and the run</a> · "
         "<a href=\"#coverage\">coverage</a> · <a href=\"#declarations\">declarations</a> · "
         "<a href=\"#input-errors\">input errors</a></nav>\n";
}

void summary_section(std::string& out, const RunSummary& s, const Ordered& ordered) {
  out += "<section id=\"summary\"><h2>Summary and the run</h2>\n<div class=\"counts\">\n";
  run_table(out, s);
  long fresh = 0, stale = 0;
  for (const Finding* f : ordered) fresh += f->is_new() ? 1 : 0;
  for (const DeclarationUse& d : s.declarations) stale += d.stale() ? 1 : 0;
  count_table(out, "findings (signatures) and problems",
              {{"new findings", fresh},
               {"known findings", static_cast<long>(ordered.size()) - fresh},
               {"stale declarations", stale},
               {"input errors", static_cast<long>(s.input_errors.size())},
               {"missing coverage classes", static_cast<long>(s.coverage.missing().size())}});
  std::vector<std::pair<std::string, long>> verdicts(s.verdicts.begin(), s.verdicts.end());
  count_table(out, "cases by verdict", verdicts);
  if (s.statuses.empty()) {
    out += "<p>Every outcome was ok or error: no crash, timeout or unsupported operation.</p>\n";
  } else {
    count_table(out, "outcomes other than ok and error (oracle:status)", {s.statuses.begin(), s.statuses.end()});
  }
  out += "</div>\n";
  scoreboard_table(out, s.scoreboard);
  out += "<div class=\"wide\"><table class=\"per-op\"><caption>cases run per property and op</caption>\n"
         "<tr><th>property</th><th class=\"num\">cases</th><th>by op</th></tr>\n";
  for (const auto& [property, n] : s.cases_per_property) {
    std::vector<std::string> ops;
    if (auto it = s.cases_per_op.find(property); it != s.cases_per_op.end())
      for (const auto& [op, k] : it->second) ops.push_back(fmt::format("{} {}", op, k));
    out += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td><td>{}</td></tr>\n", e(property), n,
                       e(join_or(ops, "(not recorded)")));
  }
  out += "</table></div></section>\n";
}

// One select of the filter bar: every token the findings have under `key`.
void filter_select(std::string& out, const Ordered& ordered, const std::string& key, const std::string& label) {
  std::set<std::string> values;
  for (const Finding* f : ordered) {
    const auto tokens = finding_filter_tokens(*f);
    if (auto it = tokens.find(key); it != tokens.end()) values.insert(it->second.begin(), it->second.end());
  }
  out += "<label>" + e(label) + " <select id=\"filter-" + key + "\" data-key=\"" + key + "\"><option value=\"\">any"
         "</option>";
  for (const std::string& v : values) out += "<option value=\"" + e(v) + "\">" + e(v) + "</option>";
  out += "</select></label>\n";
}

void findings_section(std::string& out, const RunSummary& s, const Ordered& ordered) {
  const long fresh = std::count_if(ordered.begin(), ordered.end(), [](const Finding* f) { return f->is_new(); });
  out += "<section id=\"findings\"><h2>Findings</h2>\n";
  out += "<div class=\"filters\" id=\"filters\" hidden>\n<label>Search <input type=\"search\" id=\"filter-text\" "
         "placeholder=\"signature, op, message…\"></label>\n";
  filter_select(out, ordered, "group", "new/known");
  filter_select(out, ordered, "op", "op");
  filter_select(out, ordered, "property", "property");
  filter_select(out, ordered, "odd", "odd one out");
  filter_select(out, ordered, "error", "error kind");
  filter_select(out, ordered, "class", "difference class");
  out += "<button type=\"button\" id=\"open-all\">open all</button> <button type=\"button\" id=\"close-all\">close "
         "all</button> <span id=\"filter-count\" role=\"status\"></span>\n</div>\n";
  if (ordered.empty()) out += "<p>No findings: every implementation agreed on every case.</p>\n";
  for (size_t i = 0; i < ordered.size(); ++i) {
    if (i == 0 && fresh > 0) out += fmt::format("<h3>New findings ({})</h3>\n", fresh);
    if (i == static_cast<size_t>(fresh))
      out += fmt::format("<h3>Known divergences ({})</h3>\n", static_cast<long>(ordered.size()) - fresh);
    out += finding_html(s, *ordered[i], i);
  }
  out += "</section>\n";
}

// Links to the findings a declaration explained.
std::string matched_findings_html(const Ordered& ordered, const std::string& id) {
  std::string out;
  for (size_t i = 0; i < ordered.size(); ++i) {
    const std::string ids = "," + ordered[i]->known_id + ",";
    if (ordered[i]->is_new() || ids.find("," + id + ",") == std::string::npos) continue;
    out += fmt::format("{}<a href=\"#finding-{}\">#{}</a> <code>{}</code> ({} hit(s))", out.empty() ? "" : "<br>",
                       i + 1, i + 1, e(describe(ordered[i]->minimal.c)), ordered[i]->hits);
  }
  return out.empty() ? "<span class=\"na\">—</span>" : out;
}

void declarations_section(std::string& out, const RunSummary& s, const Ordered& ordered) {
  out += "<section id=\"declarations\"><h2>Declared known divergences</h2>\n";
  if (s.declarations.empty()) {
    out += "<p>No declarations were loaded.</p></section>\n";
    return;
  }
  std::vector<std::string> stale;
  for (const DeclarationUse& u : s.declarations)
    if (u.stale()) stale.push_back(u.declaration.id);
  out += fmt::format("<p>{} declaration(s), {} of them <strong>STALE</strong> (covered cases but explained none: "
                     "the divergence may be fixed, or the declaration no longer matches it){}{}.</p>\n",
                     s.declarations.size(), stale.size(), stale.empty() ? "" : ": ", e(join_or(stale, "")));
  out += "<div class=\"wide\"><table class=\"declarations\"><tr><th>id</th><th>oracle</th><th>ops</th><th>on</th>"
         "<th>reason</th><th>reference</th>"
         "<th class=\"num\">covered</th><th class=\"num\">matched</th><th>matched in findings</th><th>flag</th></tr>\n";
  for (const DeclarationUse& u : s.declarations) {
    const Declaration& d = u.declaration;
    std::string scope = join_or(d.ops, "any op");
    if (!d.case_ids.empty()) scope += "; cases " + join_or(d.case_ids, "");
    out += fmt::format("<tr{}><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                       u.stale() ? " class=\"stale\"" : "", e(d.id), e(d.oracle), e(scope), e(d.on), e(d.reason),
                       reference_html(d.reference), u.covered, u.matched, matched_findings_html(ordered, d.id),
                       u.stale() ? "<span class=\"flag stale\">STALE</span>" : u.covered == 0 ? "not covered" : "");
  }
  out += "</table></div></section>\n";
}

// Message findings of a library against itself: one check worded differently across ops (lower severity: after
// the findings, never a failure).
void messages_section(std::string& out, const RunSummary& s) {
  const std::vector<MessageInconsistency> all = s.messages.inconsistencies();
  if (all.empty()) return;
  out += "<section id=\"messages\"><h2>Messages: one check, several wordings</h2>\n<p>Each implementation should "
         "word one check (an error kind) alike in every op. Sizes, dtype names and the op's name are masked before "
         "comparing. These are message findings, of lower severity: they never fail a run.</p>\n";
  for (const MessageInconsistency& m : all) {
    out += fmt::format("<h3>{}: {} in {} wordings</h3>\n<div class=\"wide\"><table>\n<tr><th>wording</th><th>ops"
                       "</th><th>cases</th><th>one message as given</th></tr>\n",
                       e(title_of(m.implementation)), e(m.kind), m.variants.size());
    for (const MessageVariant& v : m.variants)
      out += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td><code>{}</code></td></tr>\n",
                         e(v.pattern), e(join_or(v.ops, "")), v.cases, e(v.example));
    out += "</table></div>\n";
  }
  out += "</section>\n";
}

void input_errors_section(std::string& out, const RunSummary& s) {
  out += "<section id=\"input-errors\"><h2>Input errors</h2>\n";
  if (s.input_errors.empty()) {
    out += "<p>None: every corpus line was read.</p></section>\n";
    return;
  }
  out += fmt::format("<p>{} corpus line(s) were refused and not run:</p>\n<ul>\n", s.input_errors.size());
  for (const std::string& err : s.input_errors) out += "<li><code>" + e(err) + "</code></li>\n";
  out += "</ul></section>\n";
}

}  // namespace

std::string html_report(const RunSummary& summary) {
  Ordered ordered;
  for (const Finding& f : summary.findings) ordered.push_back(&f);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const Finding* a, const Finding* b) { return a->is_new() && !b->is_new(); });
  std::string out;
  out.reserve(16384 + summary.findings.size() * 8192);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>broadcheck {} — seed {}</title>\n", e(summary.command), summary.seed);
  out += "<style>" + std::string(report_style()) + "</style>\n</head>\n<body>\n";
  header_section(out, summary);
  findings_section(out, summary, ordered);
  summary_section(out, summary, ordered);
  out += coverage_html(summary.coverage);
  declarations_section(out, summary, ordered);
  messages_section(out, summary);
  input_errors_section(out, summary);
  out += "<footer><p>Written by broadcheck. This file is self-contained: it loads nothing from the network.</p>"
         "</footer>\n<script>" + std::string(report_script()) + "</script>\n</body>\n</html>\n";
  return out;
}

void write_html_report(const RunSummary& summary, const std::string& path) {
  write_text_file(path, html_report(summary));
}

}  // namespace bc
