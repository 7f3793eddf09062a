#include "reports/finding_html.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "harness/implementations.h"
#include "harness/join.h"
#include "harness/tolerance.h"
#include "reports/html_text.h"
#include "reports/shape_picture.h"

namespace bc {
namespace {

std::string e(const std::string& s) { return html_escape(s); }

std::string verdict_words(Verdict v) {
  switch (v) {
    case Verdict::discrepancy: return "discrepancy";
    case Verdict::expect_failed: return "expectation failed";
    case Verdict::known: return "declared divergence";
    case Verdict::agree: return "agree";
  }
  return "agree";
}

// A filter token: the text with whitespace turned into '_' (the filter splits attribute values on spaces).
std::string token(std::string text) {
  for (char& ch : text)
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') ch = '_';
  return text;
}

// "[1, 2.5, nan, …] (24 elements)": at most 12 elements shown.
std::string values_text(const Values& values) {
  constexpr size_t kShown = 12;
  std::string out = "[";
  for (size_t i = 0; i < values.size() && i < kShown; ++i) {
    out += i ? ", " : "";
    // A NaN shows as "nan" whatever its sign bit, as results.jsonl writes it: a run and a merge of its jobs
    // (which read the outcomes back from JSON) print the same page (sqrt(-4) is -nan in LibTorch and the engine).
    const bool nan = !values.integers() && std::isnan(values.floats()[i]);
    out += values.integers() ? fmt::format("{}", values.ints()[i]) : nan ? "nan" : fmt::format("{}", values.floats()[i]);
  }
  if (values.size() > kShown) out += ", …";
  return out + fmt::format("] ({} element{})", values.size(), values.size() == 1 ? "" : "s");
}

// Whether two gradients (or none) agree: shape and dtype exactly, values within the judge's gradient tolerance.
bool same_grad(const Case& c, size_t k, const Outcome& a, const Outcome& b) {
  const std::optional<Grad>& x = a.grads[k];
  const std::optional<Grad>& y = b.grads[k];
  if (!x || !y) return !x && !y;
  if (x->shape != y->shape || x->dtype != y->dtype || x->values.size() != y->values.size()) return false;
  std::vector<DType> dtypes;
  for (size_t i = 0; i < c.shapes.size(); ++i) dtypes.push_back(dtype_of(c, i));
  const int64_t summed = k < c.shapes.size() && numel(c.shapes[k]) > 0 ? numel(a.shape) / numel(c.shapes[k]) : 1;
  return !compare_values(x->values, y->values, gradient_tolerance(dtypes, std::max<int64_t>(summed, 1)), x->shape);
}

bool abstains(const Outcome& o) { return o.status == Status::unsupported; }

// The outcomes side by side, one column per implementation (and the case's expectation). In each row a cell is
// measured against the row's reference cell, that of the first column outside the odd ones out (or the first
// filled one; an unsupported outcome abstains): only a filled cell that differs from it is marked (class "diff",
// red, and the sign "≠"). Values and gradients differ beyond the judge's tolerances; messages only between the
// rule and the reference (the one comparison the judge makes of them); "—" (a field that does not apply) and an
// abstaining implementation's cells are never marked.
void outcome_table(std::string& out, const CaseRecord& r) {
  struct Column {
    std::string name;
    const Outcome* outcome;  // null: the case's expectation
    bool odd;
  };
  std::vector<Column> columns;
  const bool nobody_odd = without_majority(r.judgement, r.outcomes);  // everyone differs: no one is the odd one
  const auto is_odd = [&](const std::string& name) {
    const auto& odd = r.judgement.odd_ones;
    return !nobody_odd && std::find(odd.begin(), odd.end(), name) != odd.end();
  };
  for (const auto& [name, o] : r.outcomes) columns.push_back({name, &o, is_odd(name)});
  if (r.c.expect) columns.push_back({"document", nullptr, is_odd("document")});

  out += "<div class=\"wide\"><table class=\"outcomes\"><tr><th>field</th>";
  for (const Column& c : columns)
    out += std::string("<th") + (c.odd ? " class=\"odd-one\"" : "") + ">" +
           e(c.outcome ? c.name : "expected by the case") + (c.odd ? "<br><strong>odd one out</strong>" : "") +
           "</th>";
  out += "</tr>\n";
  const auto by_text = [](const Column&, const std::string& x, const Column&, const std::string& y) { return x == y; };
  // One row per field; a field no column has is left out, a cell that does not apply shows "—". `same` says
  // whether two filled cells agree.
  const auto row = [&](const std::string& field, const std::string& diff_name, auto cell, auto same) {
    const bool differs = r.judgement.difference == diff_name;
    std::vector<std::string> cells;
    bool any = differs;
    for (const Column& c : columns) {
      cells.push_back(cell(c));
      any = any || !cells.back().empty();
    }
    if (!any) return;
    // An implementation that does not support the case abstains, as in the judge: never the reference or marked.
    const auto votes = [&](size_t i) {
      return !cells[i].empty() && !(columns[i].outcome && abstains(*columns[i].outcome));
    };
    std::optional<size_t> ref;
    for (size_t i = 0; i < columns.size() && !ref; ++i)
      if (!columns[i].odd && votes(i)) ref = i;
    for (size_t i = 0; i < columns.size() && !ref; ++i)
      if (votes(i)) ref = i;
    out += std::string("<tr") + (differs ? " class=\"differs\"" : "") + "><th>" + e(field) +
           (differs ? " <strong>≠ first difference</strong>" : "") + "</th>";
    for (size_t i = 0; i < columns.size(); ++i) {
      const bool diff = ref && i != *ref && votes(i) && !same(columns[*ref], cells[*ref], columns[i], cells[i]);
      out += std::string(diff ? "<td class=\"diff\"><span class=\"sign\">≠ </span>" : "<td>") +
             (cells[i].empty() ? "<span class=\"na\">—</span>" : cells[i]) + "</td>";
    }
    out += "</tr>\n";
  };
  const auto exp = [&]() -> const Expectation& { return *r.c.expect; };
  const auto code = [](const std::string& text) { return "<code>" + e(text) + "</code>"; };
  row("status", "status", [&](const Column& c) {
    if (c.outcome) return e(to_string(c.outcome->status));
    return std::string(exp().shape ? "ok" : "error");
  }, by_text);
  row("shape", "shape", [&](const Column& c) -> std::string {
    if (c.outcome) return c.outcome->status == Status::ok ? code(format_shape(c.outcome->shape)) : "";
    return exp().shape ? code(format_shape(*exp().shape)) : "";
  }, by_text);
  row("dtype", "dtype", [&](const Column& c) { return c.outcome ? e(c.outcome->dtype) : std::string(); }, by_text);
  row("error kind", "error kind", [&](const Column& c) -> std::string {
    if (c.outcome) return c.outcome->error ? e(to_string(c.outcome->error->kind)) : "";
    return exp().error ? e(to_string(*exp().error)) : exp().any_error ? "(any)" : "";
  }, by_text);
  const std::string rule = name_with_role(Role::rule), reference = name_with_role(Role::reference);
  row("error message", "message", [&](const Column& c) -> std::string {
    if (c.outcome) return c.outcome->error ? "<pre>" + e(c.outcome->error->message) + "</pre>" : "";
    return exp().message ? "<pre>" + e(*exp().message) + "</pre>" : "";
  }, [&](const Column& a, const std::string& x, const Column& b, const std::string& y) {
    const bool compared = (a.name == reference && (b.name == rule || !b.outcome)) ||
                          (b.name == reference && (a.name == rule || !a.outcome));
    return !compared || x == y;
  });
  row("detail", "signal", [&](const Column& c) { return c.outcome ? e(c.outcome->detail) : std::string(); }, by_text);
  row("warnings", "warnings", [&](const Column& c) -> std::string {
    return c.outcome && !c.outcome->warnings.empty() ? "<pre>" + e(join(c.outcome->warnings, "\n")) + "</pre>" : "";
  }, by_text);
  row("values", "values", [&](const Column& c) -> std::string {
    return c.outcome && !c.outcome->values.empty() ? code(values_text(c.outcome->values)) : "";
  }, [&](const Column& a, const std::string&, const Column& b, const std::string&) {
    const Outcome& x = *a.outcome;
    const Outcome& y = *b.outcome;
    const std::optional<DType> dtype = dtype_from_string(x.dtype);
    return x.values.size() == y.values.size() && dtype && !compare_values(x.values, y.values, *dtype, x.shape);
  });
  // Gradients, one row per operand of a gradient case: shape, dtype and the first values (or "none").
  for (size_t k = 0; k < r.c.shapes.size() && is_gradient_case(r.c); ++k) {
    const std::string label = "grad of operand " + std::to_string(k);
    const bool about_grads = r.judgement.difference.rfind("grad", 0) == 0;
    row(label, about_grads && r.judgement.attribution.find("operand " + std::to_string(k)) != std::string::npos
                   ? r.judgement.difference : label,
        [&](const Column& c) -> std::string {
          if (!c.outcome) {
            if (k >= exp().grads.size()) return "";
            return exp().grads[k] ? code(format_shape(exp().grads[k]->shape)) : code("none");
          }
          if (c.outcome->status != Status::ok || k >= c.outcome->grads.size()) return "";
          const std::optional<Grad>& g = c.outcome->grads[k];
          return g ? code(format_shape(g->shape) + " " + g->dtype + " " + values_text(g->values)) : code("none");
        },
        [&](const Column& a, const std::string&, const Column& b, const std::string&) {
          if (a.outcome && b.outcome) return same_grad(r.c, k, *a.outcome, *b.outcome);
          // The document states a gradient's shape only (or none).
          const auto shape_of = [&](const Column& c) -> std::optional<Shape> {
            if (!c.outcome) return exp().grads[k] ? std::optional<Shape>(exp().grads[k]->shape) : std::nullopt;
            const std::optional<Grad>& g = c.outcome->grads[k];
            return g ? std::optional<Shape>(g->shape) : std::nullopt;
          };
          return shape_of(a) == shape_of(b);
        });
  }
  row("summary", "expectation", [&](const Column& c) {
    return code(c.outcome ? summarize(*c.outcome) : summarize(expected_outcome(exp())));
  }, by_text);
  out += "</table></div>\n";
}

void case_block(std::string& out, const std::string& title, const Case& c) {
  out += "<h4>" + e(title) + "</h4>\n<p><code>" + e(case_header_text(c)) + "</code>";
  if (!c.id.empty()) out += " — id <code>" + e(c.id) + "</code>";
  out += "</p>\n";
  if (!c.note.empty()) out += "<p>note: " + e(c.note) + "</p>\n";
  out += "<pre>" + e(json_text(to_json(c))) + "</pre>\n";
}

const DeclarationUse* find_declaration(const RunSummary& s, const std::string& id) {
  for (const DeclarationUse& d : s.declarations)
    if (d.declaration.id == id) return &d;
  return nullptr;
}

// Every difference of the minimal case, each with what explains it: the part no declaration explains is marked.
void differences_table(std::string& out, const Judgement& j) {
  if (j.differences.empty()) return;
  out += "<h4>Every difference</h4>\n<div class=\"wide\"><table class=\"differences\">\n<tr><th>component</th>"
         "<th>class</th><th>who differs</th><th>declared by</th><th>not declared</th><th>how</th></tr>\n";
  for (const Difference& d : j.differences) {
    std::string component = d.component;
    if (d.operand >= 0) component += fmt::format(" (operand {})", d.operand);
    out += fmt::format("<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       d.declared() ? "declared" : "undeclared", e(component), e(to_string(d.finding_class)),
                       e(join_or(d.odd_ones, "")), e(join_or(d.known_ids, "—")), e(join_or(d.undeclared, "—")),
                       e(d.attribution));
  }
  out += "</table></div>\n";
}

std::string data_attributes(const Finding& f) {
  std::string out;
  for (const auto& [key, tokens] : finding_filter_tokens(f)) {
    std::string value;
    for (const std::string& t : tokens) value += (value.empty() ? "" : " ") + t;
    out += " data-" + key + "=\"" + e(value) + "\"";
  }
  return out;
}

}  // namespace

std::string case_header_text(const Case& c) {
  const OpEntry* op = &entry(c.op);
  const bool tensors = computes_values(op->family) || !c.dtypes.empty() || !c.layouts.empty();
  std::vector<std::string> operands;
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    std::string text = format_shape(c.shapes[k]);
    if (tensors) text += fmt::format(" {} {}", to_string(dtype_of(c, k)), to_string(layout_of(c, k)));
    if (k < c.requires_grad.size() && c.requires_grad[k]) text += " requires grad";
    operands.push_back(text);
  }
  std::vector<std::string> extras;
  std::vector<std::string> names;
  names.assign(op->scalars.begin(), op->scalars.end());
  for (const auto& [name, value] : c.scalars)
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  for (const std::string& name : names) {
    const Scalar s = scalar_of(c, name);
    std::string text = s.integral ? fmt::format("{}", static_cast<int64_t>(s.value)) : fmt::format("{}", s.value);
    if (!s.integral && text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
    extras.push_back(name + "=" + text);
  }
  if (c.values && c.values->special) extras.push_back("special values");
  if (c.values && !c.values->data.empty()) extras.push_back("values given");
  if (c.grad_seed) extras.push_back(fmt::format("upstream gradient seed {}", *c.grad_seed));
  if (c.modify) extras.push_back(fmt::format("operand {} modified in place before backward", *c.modify));
  std::string out = std::string(to_string(c.op)) + "(";
  for (size_t k = 0; k < operands.size(); ++k) out += (k ? ", " : "") + operands[k];
  for (size_t i = 0; i < extras.size(); ++i) out += (i ? ", " : "; ") + extras[i];
  if (!c.program.empty()) out += ": " + describe_program(c.program, c.shapes.size());
  return out + ")";
}

std::map<std::string, std::vector<std::string>> finding_filter_tokens(const Finding& f) {
  std::map<std::string, std::vector<std::string>> tokens;
  tokens["group"] = {f.is_new() ? "new" : "known"};
  tokens["op"] = {token(to_string(f.minimal.c.op))};
  tokens["property"] = {token(f.property)};
  for (const std::string& odd : f.minimal.judgement.odd_ones) tokens["odd"].push_back(token(odd));
  std::set<std::string> errors;
  for (const auto& [name, o] : f.minimal.outcomes) {
    if (o.error) errors.insert(token(to_string(o.error->kind)));
    if (o.status == Status::crash || o.status == Status::timeout) errors.insert(to_string(o.status));
  }
  tokens["error"].assign(errors.begin(), errors.end());
  // The class of the difference that names the finding (outcome, message, zeros): a reader can leave out the
  // lower-severity message findings.
  const Difference* lead = lead_difference(f.minimal.judgement);
  tokens["class"] = {lead ? to_string(lead->finding_class) : "outcome"};
  return tokens;
}

std::string finding_html(const RunSummary& s, const Finding& f, size_t index) {
  const bool fresh = f.is_new();
  const std::string flag = fresh ? "NEW" : !f.reproduction.stable() ? (f.reproduction.kind == "flaky" ? "FLAKY" : "NONDETERMINISTIC") : "KNOWN";
  const CaseRecord& m = f.minimal;
  std::string out = fmt::format("<details class=\"finding {}\" id=\"finding-{}\"{}>\n", fresh ? "new" : "known",
                                index + 1, data_attributes(f));
  const std::string odd = join_or(m.judgement.odd_ones, "");
  const std::string who = odd.empty() ? ""
                          : without_majority(m.judgement, m.outcomes) ? " · no majority: " + e(odd) + " all differ"
                                                                       : " · odd one out: " + e(odd);
  out += fmt::format("<summary><span class=\"flag\">{}</span> {} — {} · {} · <code>{}</code>{} · {} hit(s)"
                     "</summary>\n",
                     flag, e(verdict_words(f.verdict)), e(f.property), e(f.family), e(case_header_text(m.c)), who,
                     f.hits);
  out += "<dl class=\"facts\">\n";
  const auto fact = [&](const std::string& key, const std::string& value_html) {
    out += "<dt>" + e(key) + "</dt><dd>" + value_html + "</dd>\n";
  };
  fact("verdict", flag + " " + e(verdict_words(f.verdict)));
  if (f.reproduction.runs > 0) fact("run again", e(describe(f.reproduction)));
  fact("signature", "<code>" + e(f.signature) + "</code>");
  fact("property", e(f.property));
  fact("family", e(f.family));
  fact("hits", fmt::format("{} raw case(s)", f.hits));
  fact("shrink steps", f.shrunk ? fmt::format("{}", f.shrink_steps) : std::string("not shrunk"));
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
  differences_table(out, m.judgement);
  case_block(out, "Minimal case", m.c);
  out += "<h4>Shapes, right-aligned</h4>\n" + shape_picture_html(m.c, m.outcomes);
  out += "<h4>Outcomes side by side</h4>\n";
  outcome_table(out, m);
  if (!f.shrunk && f.property == "corpus")
    out += "<h4>Original case</h4>\n<p>The same as the minimal case: a corpus case runs as written.</p>\n";
  else if (!f.shrunk)
    out += "<h4>Original case</h4>\n<p>The same as the minimal case: this run did not shrink it (by default a run "
           "shrinks only new findings; <code>--shrink all</code> shrinks known ones too).</p>\n";
  else if (to_json(f.original) == to_json(m.c))
    out += "<h4>Original case</h4>\n<p>The same as the minimal case (shrinking changed nothing).</p>\n";
  else
    case_block(out, "Original case (before shrinking)", f.original);
  out += "<h4>Reproduce</h4>\n";
  const std::string id = fmt::format("finding-{}-", index + 1);
  if (!f.replay_command.empty()) out += copyable_html(id + "replay", "Replay the minimal case:", f.replay_command);
  if (!f.reproduce_command.empty())
    out += copyable_html(id + "reproduce", f.shrunk ? "Regenerate it and follow its shrink path:" : "Regenerate it:",
                         f.reproduce_command);
  int n = 0;  // an adapter's name may hold any character but '=': the ids number them
  for (const auto& [adapter, command] : f.adapter_commands)
    out += copyable_html(id + "adapter-" + std::to_string(++n), "The case on the " + adapter + " adapter alone (shell):",
                         command);
  if (!f.regression_draft.empty())
    out += copyable_html(id + "draft", "Regression-test draft (GoogleTest, without broadcheck):", f.regression_draft);
  out += "</details>\n";
  return out;
}

}  // namespace bc
