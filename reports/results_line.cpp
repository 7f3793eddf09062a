#include "reports/results_line.h"

#include "reports/html_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "harness/utf8.h"

namespace bc {
namespace {

// Appends JSON text to a string; objects are written with their keys already in sorted order by the caller.
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void open(char bracket) {
    comma();
    out_ += bracket;
    first_ = true;
  }
  void close(char bracket) {
    out_ += bracket;
    first_ = false;
  }
  Writer& key(const char* k) {
    comma();
    first_ = true;  // the key itself takes no second comma
    string(k);
    out_ += ':';
    first_ = true;  // the value follows without a comma
    return *this;
  }
  void string(const std::string& s) {
    comma();
    out_ += '"';
    // A byte that is not valid UTF-8 is written as the text \xNN (harness/utf8.h), so the line stays valid JSON.
    const std::string text = visible_utf8(s);
    for (char ch : text) {
      const auto u = static_cast<unsigned char>(ch);
      if (ch == '"' || ch == '\\') {
        out_ += '\\';
        out_ += ch;
      } else if (u < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", u);
        out_ += buf;
      } else {
        out_ += ch;
      }
    }
    out_ += '"';
    first_ = false;
  }
  void integer(int64_t v) { raw(std::to_string(v)); }
  void boolean(bool b) { raw(b ? "true" : "false"); }
  void null() { raw("null"); }
  // A double, shortest round trip; an integral value keeps a ".0" so that it reads as a float, as nlohmann writes it.
  void number(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string text(buf, r.ptr);
    if (text.find_first_of(".e") == std::string::npos) text += ".0";
    raw(text);
  }
  // A value of an outcome or a case's data: NaN and the infinities are strings in JSON here.
  void value(double v) {
    if (std::isnan(v)) return string("nan");
    if (std::isinf(v)) return string(v > 0 ? "inf" : "-inf");
    number(v);
  }
  void shape(const Shape& s) {
    open('[');
    for (int64_t d : s) integer(d);
    close(']');
  }
  void strings(const std::vector<std::string>& list) {
    open('[');
    for (const std::string& s : list) string(s);
    close(']');
  }
  // Integers as JSON integers, floats as value() writes them: as to_json(Values) (harness/values.h).
  void values(const Values& list) {
    open('[');
    for (int64_t v : list.ints()) integer(v);
    for (double v : list.floats()) value(v);
    close(']');
  }
  void raw(const std::string& text) {
    comma();
    out_ += text;
    first_ = false;
  }

 private:
  void comma() {
    if (!first_) out_ += ',';
  }
  std::string& out_;
  bool first_ = true;
};

void write_case(Writer& w, const Case& c) {
  // Corpus fields we keep as given, and number operands (written in "shapes"), as to_json(Case) writes them.
  if ((c.extra.is_object() && !c.extra.empty()) || has_numbers(c)) return w.raw(json_text(to_json(c)));
  w.open('{');
  if (c.dims) w.key("dims").shape(*c.dims);
  if (c.dtype_arg) w.key("dtype_arg").string(to_string(*c.dtype_arg));
  if (!c.dtypes.empty()) {
    w.key("dtypes").open('[');
    for (DType t : c.dtypes) w.string(to_string(t));
    w.close(']');
  }
  if (c.expect) w.key("expect").raw(json_text(to_json(*c.expect)));
  if (c.grad_seed) w.key("grad_seed").integer(static_cast<int64_t>(*c.grad_seed));
  if (!c.id.empty()) w.key("id").string(c.id);
  if (c.keepdim) w.key("keepdim").boolean(true);
  if (!c.layouts.empty()) {
    w.key("layouts").open('[');
    for (Layout l : c.layouts) w.string(to_string(l));
    w.close(']');
  }
  if (c.modify) w.key("modify").integer(*c.modify);
  if (!c.note.empty()) w.key("note").string(c.note);
  w.key("op").string(to_string(c.op));
  if (!c.program.empty()) w.key("program").raw(json_text(to_json(c.program)));
  if (c.out) {
    w.key("out").open('{');
    w.key("dtype").string(to_string(c.out->dtype));
    w.key("shape").shape(c.out->shape);
    w.close('}');
  }
  if (!c.requires_grad.empty()) {
    w.key("requires_grad").open('[');
    for (bool b : c.requires_grad) w.boolean(b);
    w.close(']');
  }
  if (!c.scalars.empty()) {
    w.key("scalars").open('{');
    for (const auto& [name, s] : c.scalars) {
      w.key(name.c_str());
      if (s.integral) w.integer(static_cast<int64_t>(s.value));
      else w.value(s.value);
    }
    w.close('}');
  }
  w.key("shapes").open('[');
  for (const Shape& s : c.shapes) w.shape(s);
  w.close(']');
  if (!c.source.empty()) w.key("source").string(c.source);
  if (!c.tags.empty()) w.key("tags").strings(c.tags);
  if (c.values) {
    w.key("values").open('{');
    if (c.values->value_class) w.key("class").string(to_string(*c.values->value_class));
    if (!c.values->data.empty()) {
      w.key("data").open('[');
      for (const auto& operand : c.values->data) w.values(operand);
      w.close(']');
    }
    if (c.values->data.empty()) w.key("seed").integer(static_cast<int64_t>(c.values->seed));
    if (c.values->special) w.key("special").boolean(true);
    w.close('}');
  }
  w.close('}');
}

void write_outcome(Writer& w, const Outcome& o) {
  w.open('{');
  if (!o.detail.empty()) w.key("detail").string(o.detail);
  if (o.status == Status::ok) w.key("dtype").string(o.dtype);
  if (o.error) {
    w.key("error").open('{');
    w.key("kind").string(to_string(o.error->kind));
    w.key("message").string(o.error->message);
    w.close('}');
  }
  if (!o.grads.empty()) {
    w.key("grads").open('[');
    for (const auto& g : o.grads) {
      if (!g) {
        w.null();
        continue;
      }
      w.open('{');
      w.key("dtype").string(g->dtype);
      w.key("shape").shape(g->shape);
      if (o.withheld) w.key("values").string("nondeterministic");
      else w.key("values").values(g->values);
      w.close('}');
    }
    w.close(']');
  }
  if (o.status == Status::ok) w.key("shape").shape(o.shape);
  w.key("status").string(to_string(o.status));
  if (o.withheld && o.status == Status::ok) w.key("values").string("nondeterministic");
  else if (!o.values.empty()) w.key("values").values(o.values);
  if (!o.warnings.empty()) w.key("warnings").strings(o.warnings);
  w.close('}');
}

}  // namespace

std::string results_line(const CaseRecord& r) {
  std::string out;
  out.reserve(1024);
  Writer w(out);
  const Judgement& g = r.judgement;
  w.open('{');
  if (!g.attribution.empty()) w.key("attribution").string(g.attribution);
  w.key("case");
  write_case(w, r.c);
  if (!g.difference.empty()) w.key("difference").string(g.difference);
  if (!g.differences.empty()) {
    w.key("differences").open('[');
    for (const Difference& d : g.differences) {
      // The keys in sorted order, as to_json(Difference) gives them.
      w.open('{');
      w.key("attribution").string(d.attribution);
      w.key("class").string(to_string(d.finding_class));
      w.key("component").string(d.component);
      if (d.if_undeclared != Verdict::discrepancy) w.key("if_undeclared").string(to_string(d.if_undeclared));
      if (!d.known_ids.empty()) w.key("known").strings(d.known_ids);
      w.key("odd_ones").strings(d.odd_ones);
      if (d.operand >= 0) w.key("operand").integer(d.operand);
      if (!d.undeclared.empty()) w.key("undeclared").strings(d.undeclared);
      w.close('}');
    }
    w.close(']');
  }
  if (!g.known_id.empty()) w.key("known").string(g.known_id);
  if (!g.odd_ones.empty()) w.key("odd_ones").strings(g.odd_ones);
  // Outcome names sort as nlohmann would sort them: "engine" < "engine unfused" < "torch" < ...
  std::vector<const std::pair<std::string, Outcome>*> sorted;
  for (const auto& entry : r.outcomes) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
  w.key("outcomes").open('{');
  for (const auto* entry : sorted) {
    w.key(entry->first.c_str());
    write_outcome(w, entry->second);
  }
  w.close('}');
  w.key("property").string(r.property);
  if (r.seq >= 0) w.key("seq").integer(r.seq);
  if (!g.signature.empty()) w.key("signature").string(g.signature);
  if (!r.stability.empty()) w.key("stability").string(r.stability);
  w.key("verdict").string(to_string(g.verdict));
  w.close('}');
  return out;
}

}  // namespace bc
