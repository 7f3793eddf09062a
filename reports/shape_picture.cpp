// The shape picture: cells are worked out per group of dims (all of them, or matmul's batch dims and matrix dims
// apart), then laid out as one table. See shape_picture.h for the marks.
#include "reports/shape_picture.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "reports/html_text.h"

namespace bc {
namespace {

struct Cell {
  std::string text;   // HTML
  std::string cls;    // CSS classes ("" for a plain size)
  std::string title;  // tooltip, plain text
};
const Cell kPad{"·", "pad", ""};

struct Row {
  std::string label;  // plain text
  bool result = false;
  std::vector<Cell> cells;  // left to right, one per column
};

struct Column {
  std::string heading;  // plain text
  bool offending = false;
  bool gap = false;  // an empty column that sets two groups of dims apart
};

// The size at right-aligned position d (1 = last dim) of a shape, if it has one.
const int64_t* at(const Shape& s, size_t d) { return d <= s.size() ? &s[s.size() - d] : nullptr; }

Cell plain(int64_t v) { return {std::to_string(v), "", ""}; }
Cell offending(const std::string& text, const std::string& title) { return {text, "clash", title}; }

// A shape's sizes as plain cells, right-aligned over `width` columns.
std::vector<Cell> plain_cells(const Shape& s, size_t width) {
  std::vector<Cell> cells;
  for (size_t col = 0; col < width; ++col) {
    const int64_t* v = at(s, width - col);
    cells.push_back(v ? plain(*v) : kPad);
  }
  return cells;
}

// One position (right-aligned d) of a group of dims under the broadcast rule: appends each operand's cell and
// says whether the position is offending. In place, self (operand 0) may not grow.
bool broadcast_column(const std::vector<Shape>& parts, size_t d, bool inplace, std::vector<std::vector<Cell>>& cells) {
  std::set<int64_t> big;  // the sizes other than 1 at this position
  bool others_have_dim = false;
  for (size_t i = 0; i < parts.size(); ++i)
    if (const int64_t* v = at(parts[i], d)) {
      if (*v != 1) big.insert(*v);
      others_have_dim = others_have_dim || i > 0;
    }
  const std::string to = big.size() == 1 ? std::to_string(*big.begin()) : "?";
  bool bad = big.size() > 1;
  for (size_t i = 0; i < parts.size(); ++i) {
    const int64_t* v = at(parts[i], d);
    Cell cell = v ? plain(*v) : kPad;
    if (inplace && i == 0 && !v && others_have_dim) {
      cell = offending("· ✗", "self has no such dim, and an in-place op cannot add one");
      bad = true;
    } else if (inplace && i == 0 && v && *v == 1 && !big.empty()) {
      cell = offending("1 ✗ (self cannot grow to " + to + ")", "an in-place op cannot stretch self");
      bad = true;
    } else if (v && *v != 1 && big.size() > 1) {
      cell = offending(fmt::format("{} ✗", *v), "sizes that cannot be broadcast together");
    } else if (v && *v == 1 && !big.empty()) {
      cell = {"1 ↑ (1→" + to + ")", "stretch", "size 1 stretched"};
    }
    cells[i].push_back(cell);
  }
  return bad;
}

// One position of expand(self, target): a -1 keeps self's size, only self's size-1 dims stretch, and the target
// may not drop a dim of self.
bool expand_column(const Shape& self, const Shape& target, size_t d, std::vector<std::vector<Cell>>& cells) {
  const int64_t* a = at(self, d);
  const int64_t* t = at(target, d);
  Cell self_cell = a ? plain(*a) : kPad, target_cell = t ? plain(*t) : kPad;
  bool bad = false;
  if (a && !t) {
    self_cell = offending(fmt::format("{} ✗", *a), "the target has fewer dims than self");
    bad = true;
  } else if (t && *t == -1) {
    target_cell = a ? Cell{"-1 (keep)", "", "-1 keeps self's size"}
                    : offending("-1 ✗", "-1 in a new leading dim: there is no size to keep");
    bad = !a;
  } else if (a && t && *a == 1 && *t != 1) {
    self_cell = {fmt::format("1 ↑ (1→{})", *t), "stretch", "size 1 stretched"};
  } else if (a && t && *a != *t) {
    self_cell = offending(fmt::format("{} ✗", *a), "only a size-1 dim can be expanded");
    target_cell = offending(fmt::format("{} ✗", *t), "only a size-1 dim can be expanded");
    bad = true;
  }
  cells[0].push_back(self_cell);
  cells[1].push_back(target_cell);
  return bad;
}

enum class Rule { broadcast, inplace, expand };

// Cells of a group of dims: parts[i] holds operand i's dims in the group, right-aligned over `width` columns.
// Returns cells[i] left to right and, per column (0 = leftmost), whether it is offending.
std::vector<bool> group_cells(const std::vector<Shape>& parts, size_t width, Rule rule,
                              std::vector<std::vector<Cell>>& cells) {
  cells.assign(parts.size(), {});
  std::vector<bool> bad(width, false);
  for (size_t col = 0; col < width; ++col) {
    const size_t d = width - col;
    bad[col] = rule == Rule::expand && parts.size() == 2 ? expand_column(parts[0], parts[1], d, cells)
                                                         : broadcast_column(parts, d, rule == Rule::inplace, cells);
  }
  return bad;
}

Rule rule_for(std::optional<Family> family) {
  if (family == Family::inplace) return Rule::inplace;
  if (family == Family::expand) return Rule::expand;
  return Rule::broadcast;
}

// What each operand of an op is called, for the rows of the picture.
std::string operand_label(const Case& c, std::optional<Family> family, size_t i) {
  static const std::vector<std::string> where = {"condition", "self", "other"}, lerp = {"self", "end", "weight"};
  std::string role = "shape";
  if (c.op == "where" && i < 3) role = where[i];
  else if ((c.op == "lerp" || c.op == "lerp_") && i < 3) role = lerp[i];
  else if (family == Family::expand && c.shapes.size() == 2) role = i == 0 ? "self" : "target";
  else if (family == Family::sum_to && c.shapes.size() == 2) role = i == 0 ? "self" : "target";
  else if (family != Family::broadcast_shapes && c.shapes.size() == 2) role = i == 0 ? "self" : "other";
  return fmt::format("#{} {}{}", i + 1, role, c.shapes[i].empty() ? " (rank 0)" : "");
}

// Each distinct ok shape once, labelled with the oracles that produced it.
std::vector<std::pair<Shape, std::string>> result_shapes(const Outcomes& outcomes) {
  std::vector<std::pair<Shape, std::string>> results;
  for (const auto& [name, o] : outcomes) {
    if (o.status != Status::ok) continue;
    auto it = std::find_if(results.begin(), results.end(), [&](const auto& r) { return r.first == o.shape; });
    if (it == results.end()) results.emplace_back(o.shape, name);
    else it->second += ", " + name;
  }
  return results;
}

std::string render(const std::vector<Column>& columns, const std::string& group_row, const std::vector<Row>& rows) {
  std::string out = "<table class=\"shapes\">\n" + group_row + "<tr><th>operand</th>";
  for (const Column& col : columns) {
    if (col.gap) out += "<th class=\"gap\"></th>";
    else
      out += fmt::format("<th class=\"num{}\">{}{}</th>", col.offending ? " clash" : "", html_escape(col.heading),
                         col.offending ? " ✗" : "");
  }
  out += "</tr>\n";
  for (const Row& row : rows) {
    out += std::string(row.result ? "<tr class=\"result\">" : "<tr>") + "<th>" + html_escape(row.label) + "</th>";
    for (const Cell& cell : row.cells) {
      out += "<td";
      if (!cell.cls.empty()) out += " class=\"" + cell.cls + "\"";
      if (!cell.title.empty()) out += " title=\"" + html_escape(cell.title) + "\"";
      out += ">" + cell.text + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

const char* kLegend =
    "<p class=\"legend\">Dims are right-aligned; · no dim; <strong>1 ↑ (1→n)</strong> a size-1 dim stretched to n "
    "by another operand; <strong>✗</strong> the offending dim: sizes that cannot be matched";

std::string broadcast_picture(const Case& c, std::optional<Family> family, const Outcomes& outcomes) {
  const auto results = result_shapes(outcomes);
  size_t width = 0;
  for (const Shape& s : c.shapes) width = std::max(width, s.size());
  for (const auto& r : results) width = std::max(width, r.first.size());
  if (width == 0) return "<p>Every operand (and result) is rank 0: there is no dim to align.</p>\n";

  std::vector<std::vector<Cell>> cells;
  const std::vector<bool> bad = group_cells(c.shapes, width, rule_for(family), cells);
  std::vector<Column> columns;
  for (size_t col = 0; col < width; ++col) columns.push_back({fmt::format("dim -{}", width - col), bad[col], false});
  std::vector<Row> rows;
  for (size_t i = 0; i < c.shapes.size(); ++i) rows.push_back({operand_label(c, family, i), false, cells[i]});
  for (const auto& [shape, names] : results)
    rows.push_back({"result (" + names + ")", true, plain_cells(shape, width)});
  return render(columns, "", rows) + kLegend + ".</p>\n";
}

// matmul: batch dims (broadcast) | gap | rows, cols. A 1-D self is a row [1, k] and a 1-D other a column [k, 1]
// whose added 1 is dropped again: they fill only the cols, resp. rows, column.
std::string matmul_picture(const Case& c, const Outcomes& outcomes) {
  const auto results = result_shapes(outcomes);
  const auto batch_of = [](const Shape& s) { return s.size() > 2 ? Shape(s.begin(), s.end() - 2) : Shape{}; };
  std::vector<Shape> batches;
  for (const Shape& s : c.shapes) batches.push_back(batch_of(s));
  const bool self_matrix = !c.shapes.empty() && c.shapes[0].size() >= 2;
  const bool other_matrix = c.shapes.size() > 1 && c.shapes[1].size() >= 2;
  const size_t result_matrix_dims = (self_matrix ? 1 : 0) + (other_matrix ? 1 : 0);
  // A result's batch dims are what is left of it after its matrix dims.
  const auto result_batch = [&](const Shape& r) {
    return r.size() > result_matrix_dims ? Shape(r.begin(), r.end() - result_matrix_dims) : Shape{};
  };
  size_t width = 0;
  for (const Shape& b : batches) width = std::max(width, b.size());
  for (const auto& r : results) width = std::max(width, result_batch(r.first).size());

  std::vector<std::vector<Cell>> cells;
  const std::vector<bool> bad = group_cells(batches, width, Rule::broadcast, cells);
  std::vector<Column> columns;
  for (size_t col = 0; col < width; ++col)
    columns.push_back({fmt::format("dim -{}", width - col + 2), bad[col], false});  // the batch ends at dim -3
  columns.push_back({"", false, true});

  // The contracted pair: self's last dim against other's first matrix dim.
  const int64_t* self_k = c.shapes.size() == 2 && !c.shapes[0].empty() ? &c.shapes[0].back() : nullptr;
  const int64_t* other_k = nullptr;
  if (c.shapes.size() == 2 && !c.shapes[1].empty()) other_k = &c.shapes[1][other_matrix ? c.shapes[1].size() - 2 : 0];
  const bool inner_clash = self_k && other_k && *self_k != *other_k;
  const auto contracted = [&](int64_t v) {
    return inner_clash ? offending(fmt::format("{} ✗ (k)", v), "the contracted dims differ")
                       : Cell{fmt::format("{} (k)", v), "matrix", "contracted with the other operand's k"};
  };
  columns.push_back({"rows (dim -2)", inner_clash && other_matrix, false});
  columns.push_back({"cols (dim -1)", inner_clash, false});

  std::vector<Row> rows;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    const Shape& s = c.shapes[i];
    Row row{operand_label(c, Family::matmul, i), false, cells[i]};
    row.cells.push_back({"", "gap", ""});
    Cell rows_cell = kPad, cols_cell = kPad;
    if (i == 0 && s.size() == 1) {
      rows_cell.title = "1-D self: promoted to a row [1, k], the 1 dropped from the result";
      cols_cell = contracted(s[0]);
    } else if (i == 1 && s.size() == 1) {
      rows_cell = contracted(s[0]);
      cols_cell.title = "1-D other: promoted to a column [k, 1], the 1 dropped from the result";
    } else if (s.size() >= 2) {
      rows_cell = i == 1 ? contracted(s[s.size() - 2]) : Cell{std::to_string(s[s.size() - 2]), "matrix", ""};
      cols_cell = i == 0 ? contracted(s.back()) : Cell{std::to_string(s.back()), "matrix", ""};
    }
    row.cells.push_back(rows_cell);
    row.cells.push_back(cols_cell);
    rows.push_back(row);
  }
  for (const auto& [shape, names] : results) {
    const Shape batch = result_batch(shape);
    Row row{"result (" + names + ")", true, plain_cells(batch, width)};
    row.cells.push_back({"", "gap", ""});
    const Shape matrix(shape.begin() + static_cast<std::ptrdiff_t>(batch.size()), shape.end());
    Cell rows_cell = kPad, cols_cell = kPad;
    if (matrix.size() == 2) rows_cell = plain(matrix[0]), cols_cell = plain(matrix[1]);
    else if (matrix.size() == 1 && self_matrix) rows_cell = plain(matrix[0]);
    else if (matrix.size() == 1) cols_cell = plain(matrix[0]);
    row.cells.push_back(rows_cell);
    row.cells.push_back(cols_cell);
    rows.push_back(row);
  }
  std::string group_row = "<tr class=\"groups\"><th></th>";
  if (width > 0) group_row += fmt::format("<th colspan=\"{}\">batch dims (broadcast)</th>", width);
  group_row += "<th class=\"gap\"></th><th colspan=\"2\">matrix dims (matmul's own rule)</th></tr>\n";
  const std::string out = render(columns, group_row, rows);
  return out + kLegend +
         "; the matrix dims stand apart: matmul contracts self's cols with other's rows (both marked <strong>(k)"
         "</strong>, which must be equal), and only the batch dims before them broadcast.</p>\n";
}

}  // namespace

std::string shape_picture_html(const Case& c, const Outcomes& outcomes) {
  const OpEntry* op = find_op(c.op);
  const std::optional<Family> family = op ? std::optional<Family>(op->family) : std::nullopt;
  return family == Family::matmul ? matmul_picture(c, outcomes) : broadcast_picture(c, family, outcomes);
}

}  // namespace bc
