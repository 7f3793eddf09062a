#include "harness/coverage.h"

#include <algorithm>

#include "engine/op_table.h"
#include "harness/operand_views.h"
#include "harness/operands.h"

namespace bc {

std::vector<std::string> coverage_classes(const Case& c) {
  std::vector<std::string> out;
  size_t max_rank = 0;
  bool rank0 = false, size0 = false;
  for (const Shape& s : c.shapes) {
    max_rank = std::max(max_rank, s.size());
    rank0 = rank0 || s.empty();
    size0 = size0 || std::find(s.begin(), s.end(), 0) != s.end();
  }
  out.push_back("max rank " + std::to_string(max_rank));
  if (rank0) out.push_back("rank-0 operand");
  if (size0) out.push_back("size-0 dim");
  out.push_back(std::to_string(c.shapes.size()) + " operand" + (c.shapes.size() == 1 ? "" : "s"));
  // Singleton against non-singleton: at some right-aligned position one operand has 1 and another has not.
  bool stretch = false;
  for (size_t i = 0; i < c.shapes.size() && !stretch; ++i)
    for (size_t k = 0; k < c.shapes.size() && !stretch; ++k) {
      if (i == k) continue;
      const Shape &a = c.shapes[i], &b = c.shapes[k];
      for (size_t d = 1; d <= std::min(a.size(), b.size()); ++d)
        if (a[a.size() - d] == 1 && b[b.size() - d] != 1) stretch = true;
    }
  if (stretch) out.push_back("singleton vs non-singleton");
  // Two conflicts: two right-aligned positions where operands have different sizes, neither 1 (which one a
  // library names is part of its message). Only for the ops that broadcast all their operands together.
  const OpEntry* op = find_op(c.op);
  bool together = false;
  if (op) switch (op->family) {
      case Family::elementwise: case Family::inplace: case Family::broadcast_shapes: case Family::autograd:
      case Family::unfused: case Family::reduction: together = true; break;
      case Family::expand: case Family::sum_to: case Family::matmul: case Family::fused: case Family::reduce_dims:
      case Family::fill:
        break;
    }
  int conflicts = 0;
  for (size_t d = 1; d <= max_rank && together; ++d) {
    int64_t seen = 1;
    bool conflict = false;
    for (const Shape& s : c.shapes) {
      const int64_t size = d <= s.size() ? s[s.size() - d] : 1;
      if (size == 1) continue;
      conflict = conflict || (seen != 1 && size != seen);
      seen = size;
    }
    conflicts += conflict ? 1 : 0;
  }
  if (conflicts >= 2) out.push_back("two conflicts");
  // Value cases: the op (by name, an in-place form apart), and the op x dtype x layout cells its operands fill, as
  // built.
  if (c.values) {
    out.push_back("op " + c.op);
    std::vector<std::string> cells;
    const std::optional<Op> op = op_from_name(c.op);
    const std::string base_op = op ? to_string(out_of_place(*op)) : c.op;
    for (const OperandPlan& p : plan_views(c)) {
      cells.push_back("cell " + c.op + " " + to_string(p.dtype) + " " + to_string(p.layout));
      cells.push_back("cell " + base_op + " " + to_string(p.dtype));  // in place or not: the op meets the dtype
    }
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    out.insert(out.end(), cells.begin(), cells.end());
  }
  if (!c.program.empty())
    for (const std::string& cls : program_classes(c.program, c.shapes.size())) out.push_back(cls);
  for (const std::string& t : c.tags) out.push_back(t);
  return out;
}

void Coverage::add(const std::string& property, const Case& c) {
  std::unordered_map<std::string, long>& mine = counts[property];
  for (const std::string& cls : coverage_classes(c)) ++mine[cls];
}

void Coverage::add_class(const std::string& property, const std::string& cls) { ++counts[property][cls]; }

void Coverage::add_outcome(const std::string& property, const std::pair<std::string, Outcome>& named) {
  const Outcome& o = named.second;
  thread_local std::string cls;  // reused: no allocation per outcome
  cls.assign(named.first).append(" ");
  if (o.status == Status::error) cls.append("error:").append(to_string(o.error ? o.error->kind : ErrorKind::other));
  else cls.append(to_string(o.status));
  add_class(property, cls);
}

std::vector<std::string> Coverage::missing() const {
  std::vector<std::string> out;
  for (const auto& [property, classes] : required) {
    auto it = counts.find(property);
    for (const std::string& cls : classes)
      if (it == counts.end() || it->second.count(cls) == 0 || it->second.at(cls) == 0)
        out.push_back(property + ": " + cls);
  }
  return out;
}

void Coverage::merge(const Coverage& other) {
  for (const auto& [property, classes] : other.counts)
    for (const auto& [cls, n] : classes) counts[property][cls] += n;
  for (const auto& [property, classes] : other.required) required[property] = classes;
}

nlohmann::json to_json(const Coverage& c) {
  return {{"counts", c.counts}, {"required", c.required}, {"missing", c.missing()}};
}

Coverage coverage_from_json(const nlohmann::json& j) {
  Coverage c;
  c.counts = j.at("counts").get<std::map<std::string, std::unordered_map<std::string, long>>>();
  c.required = j.at("required").get<std::map<std::string, std::vector<std::string>>>();
  return c;
}

}  // namespace bc
