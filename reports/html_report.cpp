// report.html: one self-contained HTML5 page for the person who has to decide who is wrong.
//
// Contract:
//  - no network: no external scripts, styles, fonts or images; one inline <style> and one small inline <script>
//    (a filter over the finding blocks; without it the page is complete, only unfiltered);
//  - every text that comes from data goes through html_escape(); the script and style contain no data;
//  - nothing depends on colour alone: flags are written as words ("NEW", "KNOWN", "MISSING", "STALE",
//    "odd one out") or signs ("↑" for a stretched size-1 dim, "✗" for a clash); @media print lays it out for paper
//    and the script opens every folded block before printing;
//  - the size is linear in the number of findings, declarations, coverage classes and input errors: the report
//    shows findings, never every case (results.jsonl has those).
// Sections: run header, summary counts, generator coverage, findings (new before known, one foldable block per
// signature), declarations, input errors.
#include "reports/html_report.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "reports/text_file.h"

namespace bc {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\0': out += "\xEF\xBF\xBD"; break;  // U+FFFD: HTML has no NUL character
      default: out += ch;
    }
  }
  return out;
}

namespace {

constexpr const char* kStyle = R"(
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 80em; padding: 0 1em; color: #111; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { border-bottom: 2px solid #888; margin-top: 2em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #999; padding: .2em .5em;
  text-align: left; vertical-align: top; } th { background: #eee; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .92em; }
pre { background: #f6f6f6; border: 1px solid #ccc; padding: .5em; white-space: pre-wrap; word-break: break-all; }
.flag { font-weight: bold; padding: 0 .3em; border: 1px solid currentColor; border-radius: 3px; }
.missing, .stale, .new > summary .flag, .odd { color: #a00; } .known > summary .flag { color: #555; }
tr.missing td, tr.stale td { background: #fdd; } th.odd, td.odd { background: #fee; }
tr.differs th { background: #fd8; }
details.finding { border: 1px solid #999; border-left: 6px solid #a00; margin: .6em 0; padding: .3em .8em; }
details.finding.known { border-left-color: #888; }
details.finding > summary { cursor: pointer; font-weight: 600; }
.filters { position: sticky; top: 0; background: #fff; padding: .4em 0; border-bottom: 1px solid #ccc; }
.filters input[type=search] { width: 24em; }
table.shapes td { text-align: right; min-width: 3.5em; font-family: ui-monospace, Menlo, Consolas, monospace; }
table.shapes td.pad { color: #999; } table.shapes td.stretch { background: #def; font-style: italic; }
table.shapes td.clash, table.shapes th.clash { background: #fcc; font-weight: bold; }
table.shapes td.matrix { color: #555; } table.shapes tr.result td { border-top: 2px solid #444; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: .1em 1em; } dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; } .counts { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
.na { color: #777; }
@media print {
  body { max-width: none; font-size: 11pt; } .filters, nav { display: none; }
  details.finding { break-inside: avoid; } a { color: inherit; text-decoration: none; }
  pre { white-space: pre-wrap; }
}
)";

// Filters finding blocks by text and by group; opens every block before printing. Holds no data.
constexpr const char* kScript = R"(
(function () {
  var q = document.getElementById('filter-text'), g = document.getElementById('filter-group');
  var count = document.getElementById('filter-count');
  var blocks = document.querySelectorAll('details.finding');
  function apply() {
    var text = q.value.toLowerCase(), group = g.value, shown = 0;
    for (var i = 0; i < blocks.length; i++) {
      var b = blocks[i];
      var ok = (group === 'all' || b.getAttribute('data-group') === group) &&
               (text === '' || b.textContent.toLowerCase().indexOf(text) >= 0);
      b.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + ' of ' + blocks.length + ' findings shown';
  }
  q.addEventListener('input', apply);
  g.addEventListener('change', apply);
  window.addEventListener('beforeprint', function () {
    for (var i = 0; i < blocks.length; i++) blocks[i].open = true;
  });
  apply();
})();
)";

std::string e(const std::string& s) { return html_escape(s); }

std::string json_text(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string duration_text(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  const long whole = static_cast<long>(seconds);
  return fmt::format("{:.1f} s ({}h {:02}m {:02}s)", seconds, whole / 3600, whole / 60 % 60, whole % 60);
}

std::string command_line(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    const bool quote = a.empty() || a.find_first_of(" \t\"'$&|;<>*?") != std::string::npos;
    out += (out.empty() ? "" : " ") + (quote ? "'" + a + "'" : a);
  }
  return out;
}

std::string verdict_words(Verdict v) {
  switch (v) {
    case Verdict::discrepancy: return "discrepancy";
    case Verdict::expect_failed: return "expectation failed";
    case Verdict::known: return "declared divergence";
    case Verdict::agree: return "agree";
  }
  return "agree";
}

// What each operand of an op is called, for the rows of the shape picture.
std::string operand_label(const Case& c, size_t i) {
  const OpInfo* op = find_op(c.op);
  const std::string family = op ? op->family : "";
  std::string role;
  if (family == "broadcast_shapes" || c.shapes.size() != 2) role = "shape";
  else if (family == "expand") role = i == 0 ? "self" : "size";
  else if (family == "sum_to") role = i == 0 ? "self" : "shape";
  else role = i == 0 ? "self" : "other";
  return fmt::format("#{} {}", i + 1, role);
}

void header_section(std::string& out, const RunSummary& s) {
  out += "<header><h1>broadcheck report</h1>\n<table class=\"run\">\n";
  const auto row = [&](const std::string& key, const std::string& value_html) {
    out += "<tr><th>" + e(key) + "</th><td>" + value_html + "</td></tr>\n";
  };
  row("command", "<code>" + e(s.command) + "</code>");
  row("arguments", "<code>" + e(command_line(s.arguments)) + "</code>");
  row("seed", fmt::format("<code>{}</code>", s.seed));
  row("cases per property",
      s.cases_requested > 0 ? fmt::format("{} generated", s.cases_requested) : std::string("none generated"));
  row("started", e(s.started_at.empty() ? "(unknown)" : s.started_at));
  row("duration", e(duration_text(s.seconds)));
  row("exit code", fmt::format("{}", s.exit_code));
  if (!s.shard.empty()) row("shard", "<code>" + e(s.shard) + "</code>");
  if (s.interrupted) row("INTERRUPTED", "the run was stopped by a signal; this report covers what ran");
  for (const auto& [name, version] : s.versions) row("version: " + name, "<code>" + e(version) + "</code>");
  out += "</table></header>\n";
  out += "<nav>Sections: <a href=\"#summary\">summary</a> · <a href=\"#coverage\">coverage</a> · "
         "<a href=\"#findings\">findings</a> · <a href=\"#declarations\">declarations</a> · "
         "<a href=\"#input-errors\">input errors</a></nav>\n";
}

void count_table(std::string& out, const std::string& caption, const std::vector<std::pair<std::string, long>>& rows) {
  out += "<table><caption>" + e(caption) + "</caption>\n";
  for (const auto& [key, n] : rows) out += fmt::format("<tr><th>{}</th><td class=\"num\">{}</td></tr>\n", e(key), n);
  out += "</table>\n";
}

void summary_section(std::string& out, const RunSummary& s) {
  out += "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"counts\">\n";
  std::vector<std::pair<std::string, long>> verdicts;
  for (const char* v : {"agree", "discrepancy", "known", "expect_failed"}) {
    auto it = s.verdicts.find(v);
    verdicts.emplace_back(v, it == s.verdicts.end() ? 0 : it->second);
  }
  for (const auto& [v, n] : s.verdicts)
    if (v != "agree" && v != "discrepancy" && v != "known" && v != "expect_failed") verdicts.emplace_back(v, n);
  count_table(out, "cases by verdict", verdicts);

  long fresh = 0, stale = 0;
  for (const Finding& f : s.findings) fresh += f.is_new() ? 1 : 0;
  for (const DeclarationUse& d : s.declarations) stale += d.stale() ? 1 : 0;
  count_table(out, "findings and problems",
              {{"new findings", fresh},
               {"known findings", static_cast<long>(s.findings.size()) - fresh},
               {"stale declarations", stale},
               {"input errors", static_cast<long>(s.input_errors.size())},
               {"missing coverage classes", static_cast<long>(s.coverage.missing().size())}});

  std::vector<std::pair<std::string, long>> cases(s.cases_per_property.begin(), s.cases_per_property.end());
  count_table(out, "cases run per property", cases);
  if (s.statuses.empty()) {
    out += "<p>Every outcome was ok or error: no crash, timeout or unsupported operation.</p>\n";
  } else {
    count_table(out, "outcomes other than ok and error (oracle:status)", {s.statuses.begin(), s.statuses.end()});
  }
  out += "</div></section>\n";
}

void coverage_section(std::string& out, const Coverage& cov) {
  out += "<section id=\"coverage\"><h2>Generator coverage</h2>\n"
         "<p>Cases per class, per property. A class the property's generator promises but never produced is "
         "flagged <strong>MISSING</strong>: the generator (not the libraries) has a bug.</p>\n";
  std::set<std::string> properties;
  for (const auto& [p, classes] : cov.counts) properties.insert(p);
  for (const auto& [p, classes] : cov.required) properties.insert(p);
  if (properties.empty()) out += "<p>No coverage was recorded.</p>\n";
  for (const std::string& p : properties) {
    std::map<std::string, long> counts;
    if (auto it = cov.counts.find(p); it != cov.counts.end()) counts = it->second;
    std::set<std::string> required;
    if (auto it = cov.required.find(p); it != cov.required.end()) required.insert(it->second.begin(), it->second.end());
    for (const std::string& cls : required) counts.emplace(cls, 0);
    out += "<h3>" + e(p) + "</h3>\n<table class=\"coverage\"><tr><th>class</th><th class=\"num\">cases</th>"
           "<th>required</th><th>flag</th></tr>\n";
    for (const auto& [cls, n] : counts) {
      const bool req = required.count(cls) > 0, missing = req && n == 0;
      out += fmt::format("<tr{}><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>\n",
                         missing ? " class=\"missing\"" : "", e(cls), n, req ? "required" : "",
                         missing ? "<span class=\"flag missing\">MISSING</span>" : "");
    }
    out += "</table>\n";
  }
  out += "</section>\n";
}

void outcome_table(std::string& out, const CaseRecord& r) {
  struct Column {
    std::string name;
    const Outcome* outcome;  // null: the case's expectation
    bool odd;
  };
  std::vector<Column> columns;
  const auto is_odd = [&](const std::string& name) {
    const auto& odd = r.judgement.odd_ones;
    return std::find(odd.begin(), odd.end(), name) != odd.end();
  };
  for (const auto& [name, o] : r.outcomes) columns.push_back({name, &o, is_odd(name)});
  if (r.c.expect) columns.push_back({"document", nullptr, is_odd("document")});

  out += "<table class=\"outcomes\"><tr><th>field</th>";
  for (const Column& c : columns)
    out += std::string("<th") + (c.odd ? " class=\"odd\"" : "") + ">" +
           e(c.outcome ? c.name : "expected by the case") + (c.odd ? "<br><strong>odd one out</strong>" : "") +
           "</th>";
  out += "</tr>\n";
  // One row per field; a field no column has is left out, a cell that does not apply shows "—".
  const auto row = [&](const std::string& field, const std::string& diff_name, auto cell) {
    const bool differs = r.judgement.difference == diff_name;
    std::vector<std::string> cells;
    bool any = differs;
    for (const Column& c : columns) {
      cells.push_back(cell(c));
      any = any || !cells.back().empty();
    }
    if (!any) return;
    out += std::string("<tr") + (differs ? " class=\"differs\"" : "") + "><th>" + e(field) +
           (differs ? " <strong>≠ first difference</strong>" : "") + "</th>";
    for (size_t i = 0; i < columns.size(); ++i)
      out += std::string("<td") + (columns[i].odd ? " class=\"odd\"" : "") + ">" +
             (cells[i].empty() ? "<span class=\"na\">—</span>" : cells[i]) + "</td>";
    out += "</tr>\n";
  };
  const auto exp = [&]() -> const Expectation& { return *r.c.expect; };
  row("status", "status", [&](const Column& c) {
    if (c.outcome) return e(to_string(c.outcome->status));
    return std::string(exp().shape ? "ok" : "error");
  });
  row("shape", "shape", [&](const Column& c) -> std::string {
    if (c.outcome) return c.outcome->status == Status::ok ? "<code>" + e(format_shape(c.outcome->shape)) + "</code>" : "";
    return exp().shape ? "<code>" + e(format_shape(*exp().shape)) + "</code>" : "";
  });
  row("dtype", "dtype", [&](const Column& c) { return c.outcome ? e(c.outcome->dtype) : std::string(); });
  row("error kind", "error kind", [&](const Column& c) -> std::string {
    if (c.outcome) return c.outcome->error ? e(to_string(c.outcome->error->kind)) : "";
    return exp().error ? e(to_string(*exp().error)) : exp().any_error ? "(any)" : "";
  });
  row("error message", "message", [&](const Column& c) -> std::string {
    if (c.outcome) return c.outcome->error ? "<pre>" + e(c.outcome->error->message) + "</pre>" : "";
    return exp().message ? "<pre>" + e(*exp().message) + "</pre>" : "";
  });
  row("detail", "signal", [&](const Column& c) { return c.outcome ? e(c.outcome->detail) : std::string(); });
  row("summary", "expectation", [&](const Column& c) {
    return c.outcome ? "<code>" + e(summarize(*c.outcome)) + "</code>" : "<code>" + e(summarize(expected_outcome(exp()))) + "</code>";
  });
  out += "</table>\n";
}

const DeclarationUse* find_declaration(const RunSummary& s, const std::string& id) {
  for (const DeclarationUse& d : s.declarations)
    if (d.declaration.id == id) return &d;
  return nullptr;
}

std::string reference_html(const std::string& reference) {
  const bool link = reference.rfind("https://", 0) == 0 || reference.rfind("http://", 0) == 0;
  return link ? "<a href=\"" + e(reference) + "\">" + e(reference) + "</a>" : e(reference);
}

void case_block(std::string& out, const std::string& title, const Case& c) {
  out += "<h4>" + e(title) + "</h4>\n<p><code>" + e(describe(c)) + "</code>";
  if (!c.id.empty()) out += " — id <code>" + e(c.id) + "</code>";
  out += "</p>\n";
  if (!c.note.empty()) out += "<p>note: " + e(c.note) + "</p>\n";
  out += "<pre>" + e(json_text(to_json(c))) + "</pre>\n";
}

void finding_block(std::string& out, const RunSummary& s, const Finding& f, size_t index) {
  const bool fresh = f.is_new();
  const CaseRecord& m = f.minimal;
  out += fmt::format("<details class=\"finding {0}\" data-group=\"{0}\" id=\"finding-{1}\">\n", fresh ? "new" : "known",
                     index + 1);
  out += fmt::format("<summary><span class=\"flag\">{}</span> {} — {} · {} · <code>{}</code> · {} hit(s)</summary>\n",
                     fresh ? "NEW" : "KNOWN", e(verdict_words(f.verdict)), e(f.property), e(f.family), e(describe(m.c)),
                     f.hits);
  out += "<dl class=\"facts\">\n";
  const auto fact = [&](const std::string& key, const std::string& value_html) {
    out += "<dt>" + e(key) + "</dt><dd>" + value_html + "</dd>\n";
  };
  fact("verdict", std::string(fresh ? "NEW " : "KNOWN ") + e(verdict_words(f.verdict)));
  fact("signature", "<code>" + e(f.signature) + "</code>");
  fact("property", e(f.property));
  fact("family", e(f.family));
  fact("hits", fmt::format("{} raw case(s)", f.hits));
  fact("shrink steps", fmt::format("{}", f.shrink_steps));
  fact("first difference", e(m.judgement.difference.empty() ? "(none)" : m.judgement.difference));
  fact("attribution", e(m.judgement.attribution.empty() ? "(none)" : m.judgement.attribution));
  if (!fresh) {
    // One case may be explained by several declarations (one per departing implementation), comma-separated.
    std::string ids = f.known_id + ",";
    for (size_t at = 0, next; (next = ids.find(',', at)) != std::string::npos; at = next + 1) {
      const std::string id = ids.substr(at, next - at);
      if (id.empty()) continue;
      fact("declaration", "<code>" + e(id) + "</code>");
      if (const DeclarationUse* d = find_declaration(s, id)) {
        fact("reason", e(d->declaration.reason));
        fact("reference", reference_html(d->declaration.reference));
      } else {
        fact("reason", "(declaration " + e(id) + " is not among this run's declarations)");
      }
    }
  }
  out += "</dl>\n";
  case_block(out, "Minimal case", m.c);
  out += "<h4>Shapes, right-aligned</h4>\n" + shape_picture_html(m.c, m.outcomes);
  out += "<h4>Outcomes side by side</h4>\n";
  outcome_table(out, m);
  if (to_json(f.original) == to_json(m.c))
    out += "<h4>Original case</h4>\n<p>The same as the minimal case (shrinking changed nothing).</p>\n";
  else
    case_block(out, "Original case (before shrinking)", f.original);
  out += "<h4>Reproduce</h4>\n";
  if (!f.replay_command.empty()) out += "<p>Replay the minimal case:</p>\n<pre>" + e(f.replay_command) + "</pre>\n";
  if (!f.reproduce.empty())
    out += "<p>Regenerate and re-shrink it: <code>build/broadcheck replay --reproduce " + e(f.reproduce) +
           "</code></p>\n";
  if (!f.regression_draft.empty())
    out += "<p>Regression-test draft (GoogleTest, without broadcheck):</p>\n<pre>" + e(f.regression_draft) +
           "</pre>\n";
  out += "</details>\n";
}

void findings_section(std::string& out, const RunSummary& s) {
  std::vector<const Finding*> ordered;
  for (const Finding& f : s.findings) ordered.push_back(&f);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const Finding* a, const Finding* b) { return a->is_new() && !b->is_new(); });
  const long fresh = std::count_if(ordered.begin(), ordered.end(), [](const Finding* f) { return f->is_new(); });
  out += "<section id=\"findings\"><h2>Findings</h2>\n";
  out += "<div class=\"filters\"><label>Search <input type=\"search\" id=\"filter-text\" "
         "placeholder=\"signature, op, message…\"></label> <label>Show <select id=\"filter-group\">"
         "<option value=\"all\">all</option><option value=\"new\">new only</option>"
         "<option value=\"known\">known only</option></select></label> <span id=\"filter-count\"></span></div>\n";
  if (ordered.empty()) out += "<p>No findings: every implementation agreed on every case.</p>\n";
  for (size_t i = 0; i < ordered.size(); ++i) {
    if (i == 0 && fresh > 0) out += fmt::format("<h3>New findings ({})</h3>\n", fresh);
    if (i == static_cast<size_t>(fresh))
      out += fmt::format("<h3>Known divergences ({})</h3>\n", static_cast<long>(ordered.size()) - fresh);
    finding_block(out, s, *ordered[i], i);
  }
  out += "</section>\n";
}

std::string join(const std::vector<std::string>& parts, const std::string& empty) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? empty : out;
}

void declarations_section(std::string& out, const RunSummary& s) {
  out += "<section id=\"declarations\"><h2>Declared known divergences</h2>\n";
  if (s.declarations.empty()) {
    out += "<p>No declarations were loaded.</p></section>\n";
    return;
  }
  out += "<p>A declaration that this run covered but that explained no case is <strong>STALE</strong>: the "
         "divergence may be fixed, or the declaration no longer matches it.</p>\n"
         "<table><tr><th>id</th><th>oracle</th><th>ops</th><th>on</th><th>reason</th><th>reference</th>"
         "<th class=\"num\">covered</th><th class=\"num\">matched</th><th>flag</th></tr>\n";
  for (const DeclarationUse& u : s.declarations) {
    const Declaration& d = u.declaration;
    std::string scope = join(d.ops, "any op");
    if (!d.case_ids.empty()) scope += "; cases " + join(d.case_ids, "");
    out += fmt::format("<tr{}><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                       "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
                       u.stale() ? " class=\"stale\"" : "", e(d.id), e(d.oracle), e(scope), e(d.on), e(d.reason),
                       reference_html(d.reference), u.covered, u.matched,
                       u.stale() ? "<span class=\"flag stale\">STALE</span>" : u.covered == 0 ? "not covered" : "");
  }
  out += "</table></section>\n";
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

std::string shape_picture_html(const Case& c, const Outcomes& outcomes) {
  const OpInfo* op = find_op(c.op);
  const bool matmul = op && op->family == "matmul";
  const bool expand = op && op->family == "expand";
  // Result rows: each distinct ok shape once, labelled with the oracles that produced it.
  std::vector<std::pair<Shape, std::string>> results;
  for (const auto& [name, o] : outcomes) {
    if (o.status != Status::ok) continue;
    auto it = std::find_if(results.begin(), results.end(), [&](const auto& r) { return r.first == o.shape; });
    if (it == results.end()) results.emplace_back(o.shape, name);
    else it->second += ", " + name;
  }
  size_t width = 0;
  for (const Shape& s : c.shapes) width = std::max(width, s.size());
  for (const auto& r : results) width = std::max(width, r.first.size());
  if (width == 0) return "<p>Every operand (and result) is rank 0: there is no dim to align.</p>\n";

  // The size at right-aligned position d (1 = last dim) of a shape, if it has one.
  const auto at = [](const Shape& s, size_t d) -> const int64_t* { return d <= s.size() ? &s[s.size() - d] : nullptr; };
  // Per position: the distinct non-1 sizes the operands bring (an expand target's -1 is "keep": no size).
  std::vector<std::set<int64_t>> big(width + 1);
  for (size_t d = 1; d <= width; ++d) {
    if (matmul && d <= 2) continue;  // matrix dims are matched by matmul's own rule, not broadcast
    for (size_t i = 0; i < c.shapes.size(); ++i)
      if (const int64_t* v = at(c.shapes[i], d); v && *v != 1 && !(expand && i == 1 && *v == -1)) big[d].insert(*v);
  }

  std::string out = "<table class=\"shapes\"><tr><th>operand</th>";
  for (size_t d = width; d >= 1; --d) {
    const bool clash = big[d].size() > 1;
    out += fmt::format("<th class=\"num{}\">dim {}{}</th>", clash ? " clash" : "", -static_cast<long>(d),
                       matmul && d <= 2 ? " (matrix)" : "");
  }
  out += "</tr>\n";
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    out += "<tr><th>" + e(operand_label(c, i)) + (c.shapes[i].empty() ? " (rank 0)" : "") + "</th>";
    for (size_t d = width; d >= 1; --d) {
      const int64_t* v = at(c.shapes[i], d);
      if (!v) {
        out += "<td class=\"pad\">·</td>";
      } else if (expand && i == 1 && *v == -1) {
        out += "<td title=\"-1 keeps the size\">-1 (keep)</td>";
      } else if (matmul && d <= 2) {
        out += fmt::format("<td class=\"matrix\">{}</td>", *v);
      } else if (big[d].size() > 1 && *v != 1) {
        out += fmt::format("<td class=\"clash\">{} ✗</td>", *v);
      } else if (*v == 1 && !big[d].empty()) {
        const std::string to = big[d].size() == 1 ? std::to_string(*big[d].begin()) : "?";
        out += fmt::format("<td class=\"stretch\" title=\"size 1 stretched\">1 ↑ (1→{})</td>", to);
      } else {
        out += fmt::format("<td>{}</td>", *v);
      }
    }
    out += "</tr>\n";
  }
  for (const auto& [shape, names] : results) {
    out += "<tr class=\"result\"><th>result (" + e(names) + ")</th>";
    for (size_t d = width; d >= 1; --d) {
      const int64_t* v = at(shape, d);
      out += v ? fmt::format("<td>{}</td>", *v) : std::string("<td class=\"pad\">·</td>");
    }
    out += "</tr>\n";
  }
  out += "</table>\n<p class=\"legend\">Dims are right-aligned; · no dim; <strong>1 ↑ (1→n)</strong> a size-1 dim "
         "stretched to n by another operand; <strong>✗</strong> two different sizes, neither 1, at one position";
  out += matmul ? "; matmul matches the last two dims by its own rule, only the dims before them broadcast.</p>\n"
                : ".</p>\n";
  return out;
}

std::string html_report(const RunSummary& summary) {
  std::string out;
  out.reserve(16384 + summary.findings.size() * 6144);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>broadcheck {} — seed {}</title>\n", e(summary.command), summary.seed);
  out += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  header_section(out, summary);
  summary_section(out, summary);
  coverage_section(out, summary.coverage);
  findings_section(out, summary);
  declarations_section(out, summary);
  input_errors_section(out, summary);
  out += "<footer><p>Written by broadcheck. This file is self-contained: it loads nothing from the network.</p>"
         "</footer>\n<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

void write_html_report(const RunSummary& summary, const std::string& path) {
  write_text_file(path, html_report(summary));
}

}  // namespace bc
