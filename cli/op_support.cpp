#include "cli/op_support.h"

#include <algorithm>
#include <map>
#include <sstream>

#include <fmt/format.h>

namespace bc {
namespace {

// Valid shapes for op `e`: the products' and fused products' own, else operands that broadcast together.
std::vector<Shape> example_shapes(const OpEntry& e) {
  static const std::map<Op, std::vector<Shape>> own = {
      {Op::matmul, {{2, 2, 3}, {3, 4}}},    {Op::mm, {{2, 3}, {3, 4}}},
      {Op::bmm, {{2, 2, 3}, {2, 3, 4}}},    {Op::mv, {{2, 3}, {3}}},
      {Op::dot, {{3}, {3}}},                {Op::outer, {{2}, {3}}},
      {Op::addmm, {{2, 4}, {2, 3}, {3, 4}}}, {Op::addmv, {{2}, {2, 3}, {3}}},
      {Op::addr, {{2, 3}, {2}, {3}}},       {Op::baddbmm, {{2, 2, 4}, {2, 2, 3}, {2, 3, 4}}},
      {Op::addbmm, {{2, 4}, {2, 2, 3}, {2, 3, 4}}}, {Op::expand, {{3, 1}, {2, 3, 4}}},
      {Op::sum_to, {{2, 3}, {3}}}};
  const auto it = own.find(out_of_place(e.op));
  if (it != own.end()) return it->second;
  // Every other op broadcasts all its operands together (the first keeps the full shape, for in place).
  std::vector<Shape> shapes = {{2, 3}, {3}, {1, 3}};
  shapes.resize(static_cast<size_t>(e.arity < 0 ? 2 : e.arity));
  return shapes;
}

bool has_grads(const OpEntry& e) {
  const OpEntry& base = entry(out_of_place(e.op));
  if (base.binary) return base.binary->backward != nullptr;
  return computes_values(e.family);
}

std::string cell(const Outcome& o) {
  switch (o.status) {
    case Status::ok:
    case Status::error: return "run";
    case Status::crash: return "crash";
    case Status::timeout: return "timeout";
    case Status::unsupported: return "unsupported";
  }
  return "unsupported";
}

}  // namespace

Case example_case(const OpEntry& e, bool gradient) {
  Case c;
  c.op = e.op;
  c.shapes = example_shapes(e);
  if (!computes_values(e.family)) return c;
  // float32 operands, but int64 ones for an op LibTorch computes on integers only (the bitwise ops, the shifts).
  const BinaryRule* rule = binary_rule(e.op);
  const bool integers = rule && (rule->refuses == Refuses::floating || rule->refuses == Refuses::bool_floating);
  for (size_t k = 0; k < c.shapes.size(); ++k)
    c.dtypes.push_back(k == 0 && e.dtype_rule == DTypeRule::bool_condition ? DType::bool_
                       : integers                                        ? DType::int64
                                                                         : DType::float32);
  c.values = ValueSpec{1, false, {}, std::nullopt};
  if (e.op == Op::graph) {  // t2 = mul(x0, x1); t3 = gt(t2, x1); t4 = where(t3, t2, x0)
    c.program = {{Op::mul, {0, 1}}, {Op::gt, {2, 1}}, {Op::where, {3, 2, 0}}};
  }
  if (gradient) {
    c.requires_grad.assign(c.shapes.size(), false);
    for (size_t k = 0; k < c.shapes.size(); ++k)
      c.requires_grad[k] = c.dtypes[k] == DType::float32 && !(k == 0 && is_inplace(e.op));
  }
  return c;
}

std::vector<SupportRow> support_matrix(const std::vector<std::unique_ptr<Oracle>>& oracles) {
  std::vector<SupportRow> rows;
  for (const OpEntry& e : op_table()) {
    SupportRow row{&e, {}};
    for (const auto& oracle : oracles) {
      SupportCell s{oracle->name(), "", "-", ""};
      const Outcome v = oracle->run(example_case(e, false));
      s.values = cell(v);
      if (v.status == Status::unsupported) s.reason = v.detail;
      if (has_grads(e)) {
        const Outcome g = oracle->run(example_case(e, true));
        s.grads = cell(g);
        if (g.status == Status::unsupported && s.reason.empty()) s.reason = g.detail;
      }
      row.cells.push_back(s);
    }
    rows.push_back(row);
  }
  return rows;
}

namespace {

constexpr size_t kTextWidth = 80;  // `list ops` fits a terminal of 80 columns

// `words` after `first`, wrapped at kTextWidth, each further line indented by `indent` spaces.
std::string wrapped(const std::string& first, const std::vector<std::string>& words, size_t indent) {
  std::string out = first, line = first;
  for (const std::string& w : words) {
    const bool fresh = line.empty() || line.back() == ' ';
    if (line.size() + (fresh ? 0 : 1) + w.size() > kTextWidth && line.size() > indent) {
      out += "\n" + std::string(indent, ' ');
      line = std::string(indent, ' ');
    } else if (!fresh) {
      out += " ";
      line += " ";
    }
    out += w;
    line += w;
  }
  return out + "\n";
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// A cell in one character: + runs, - unsupported, ! crash, T timeout, . no such case (an op without gradients).
char mark(const std::string& cell) {
  if (cell == "run") return '+';
  if (cell == "unsupported") return '-';
  if (cell == "crash") return '!';
  if (cell == "timeout") return 'T';
  return '.';
}

}  // namespace

std::string support_text(const std::vector<SupportRow>& rows) {
  if (rows.empty()) return "";
  std::vector<std::string> legend;
  const std::vector<SupportCell>& names = rows.front().cells;
  for (size_t k = 0; k < names.size(); ++k) legend.push_back(std::to_string(k + 1) + "=" + names[k].oracle);
  size_t op_width = 2, family_width = 6;
  for (const SupportRow& r : rows) {
    op_width = std::max(op_width, std::string(r.op->name).size());
    family_width = std::max(family_width, std::string(to_string(r.op->family)).size());
  }
  std::string out = wrapped("", words_of("Each op's small example on each implementation, values then gradients: + "
                                         "runs, - unsupported (why: after the table), ! crashes, T times out, . the "
                                         "op has no gradient. Implementations:"), 2);
  out += wrapped("  ", legend, 2) + "\n";
  out += fmt::format("{:<{}} {:<{}} arity ", "op", op_width, "family", family_width);
  for (size_t k = 0; k < names.size(); ++k) out += fmt::format(" {:<2}", k + 1);
  while (out.back() == ' ') out.pop_back();
  out += "\n";
  // Each reason once, with the ops it applies to, in the order first met.
  std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
  for (const SupportRow& r : rows) {
    out += fmt::format("{:<{}} {:<{}} {:>5} ", r.op->name, op_width, to_string(r.op->family), family_width,
                       r.op->arity < 0 ? std::string("any") : std::to_string(r.op->arity));
    for (const SupportCell& c : r.cells) {
      out += fmt::format(" {}{}", mark(c.values), mark(c.grads));
      if (c.reason.empty()) continue;
      const std::string why = c.oracle + ": " + c.reason;
      auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& x) { return x.first == why; });
      if (it == reasons.end()) it = reasons.insert(reasons.end(), {why, {}});
      it->second.push_back(r.op->name);
    }
    out += "\n";
  }
  if (!reasons.empty()) out += "\nUnsupported, and why:\n";
  for (const auto& [why, ops] : reasons) {
    out += wrapped("- ", words_of(why), 2);
    out += wrapped("    ops:", ops, 8);
  }
  return out;
}

nlohmann::json support_json(const std::vector<SupportRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const SupportRow& r : rows) {
    nlohmann::json support = nlohmann::json::object();
    for (const SupportCell& s : r.cells) {
      support[s.oracle] = {{"values", s.values}, {"grads", s.grads}};
      if (!s.reason.empty()) support[s.oracle]["reason"] = s.reason;
    }
    nlohmann::json scalars = nlohmann::json::array();
    for (const char* name : r.op->scalars) scalars.push_back(name);
    out.push_back({{"op", r.op->name},
                   {"family", to_string(r.op->family)},
                   {"arity", r.op->arity},
                   {"inplace", r.op->inplace ? nlohmann::json(to_string(*r.op->inplace)) : nlohmann::json()},
                   {"base", r.op->base ? nlohmann::json(to_string(*r.op->base)) : nlohmann::json()},
                   {"scalars", scalars},
                   {"summary", r.op->summary},
                   {"support", support}});
  }
  return out;
}

}  // namespace bc
