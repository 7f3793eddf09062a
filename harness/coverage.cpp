#include "harness/coverage.h"

#include <algorithm>

#include "engine/op_table.h"
#include "harness/operand_views.h"
#include "harness/operands.h"

namespace bc {

namespace {

// A list of class names that keeps its strings between cases: a run computes a dozen classes for every case, and
// assigning into a string that has room allocates nothing.
class ClassList {
 public:
  explicit ClassList(std::vector<std::string>& names) : names_(names) {}
  std::string& next() {
    if (used_ == names_.size()) names_.emplace_back();
    return names_[used_++];
  }
  void add(const std::string& name) { next().assign(name); }
  // Sorts and drops repeats among the names added since `from`.
  void sort_unique_from(size_t from) {
    std::sort(names_.begin() + static_cast<std::ptrdiff_t>(from), names_.begin() + static_cast<std::ptrdiff_t>(used_));
    used_ = static_cast<size_t>(std::unique(names_.begin() + static_cast<std::ptrdiff_t>(from),
                                            names_.begin() + static_cast<std::ptrdiff_t>(used_)) -
                                names_.begin());
  }
  size_t size() const { return used_; }

 private:
  std::vector<std::string>& names_;
  size_t used_ = 0;
};

// coverage_classes(c) into the first names of `names` (their strings reused; more are added as needed); returns
// how many.
size_t classes_of(const Case& c, std::vector<std::string>& names) {
  ClassList out(names);
  size_t max_rank = 0;
  bool rank0 = false, size0 = false;
  for (const Shape& s : c.shapes) {
    max_rank = std::max(max_rank, s.size());
    rank0 = rank0 || s.empty();
    size0 = size0 || std::find(s.begin(), s.end(), 0) != s.end();
  }
  out.next().assign("max rank ").append(std::to_string(max_rank));
  if (rank0) out.add("rank-0 operand");
  if (size0) out.add("size-0 dim");
  out.next().assign(std::to_string(c.shapes.size())).append(c.shapes.size() == 1 ? " operand" : " operands");
  // Singleton against non-singleton: at some right-aligned position one operand has 1 and another has not.
  bool stretch = false;
  for (size_t i = 0; i < c.shapes.size() && !stretch; ++i)
    for (size_t k = 0; k < c.shapes.size() && !stretch; ++k) {
      if (i == k) continue;
      const Shape &a = c.shapes[i], &b = c.shapes[k];
      for (size_t d = 1; d <= std::min(a.size(), b.size()); ++d)
        if (a[a.size() - d] == 1 && b[b.size() - d] != 1) stretch = true;
    }
  if (stretch) out.add("singleton vs non-singleton");
  // Two conflicts: two right-aligned positions where operands have different sizes, neither 1 (which one a
  // library names is part of its message). Only for the ops that broadcast all their operands together.
  bool together = false;
  switch (entry(c.op).family) {
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
  if (conflicts >= 2) out.add("two conflicts");
  // Value cases: the op (by name, an in-place form apart), and the op x dtype x layout cells its operands fill, as
  // built.
  if (c.values) {
    out.next().assign("op ").append(to_string(c.op));
    const char* base_op = to_string(out_of_place(c.op));
    const size_t cells = out.size();
    for (const OperandPlan& p : plan_views(c)) {
      out.next().assign("cell ").append(to_string(c.op)).append(" ").append(to_string(p.dtype)).append(" ").append(
          to_string(p.layout));
      out.next().assign("cell ").append(base_op).append(" ").append(to_string(p.dtype));  // in place or not
    }
    out.sort_unique_from(cells);
    // The value class each operand drew, per op family and dtype (plain where the class does not apply).
    const size_t drawn = out.size();
    const char* family = to_string(entry(c.op).family);
    const ValueClass cls = c.values->data.empty() ? c.values->value_class.value_or(ValueClass::plain) : ValueClass::plain;
    for (size_t k = 0; k < c.shapes.size(); ++k) {
      const DType t = k < c.dtypes.size() ? c.dtypes[k] : DType::float32;
      const ValueClass drew = value_class_applies(cls, t) ? cls : ValueClass::plain;
      out.next().assign("values ").append(family).append(" ").append(to_string(t)).append(" ").append(to_string(drew));
    }
    out.sort_unique_from(drawn);
  }
  if (!c.program.empty())
    for (const std::string& cls : program_classes(c.program, c.shapes.size())) out.add(cls);
  for (const std::string& t : c.tags) out.add(t);
  return out.size();
}

}  // namespace

std::string value_class_cell(const std::string& family, DType dtype, ValueClass cls) {
  return "values " + family + " " + to_string(dtype) + " " + to_string(cls);
}

std::vector<std::string> coverage_classes(const Case& c) {
  std::vector<std::string> names;
  names.resize(classes_of(c, names));
  return names;
}

void Coverage::add(const std::string& property, const Case& c) {
  std::unordered_map<std::string, long>& mine = counts[property];
  thread_local std::vector<std::string> names;  // reused: no allocation per class
  const size_t n = classes_of(c, names);
  for (size_t k = 0; k < n; ++k) ++mine[names[k]];
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
