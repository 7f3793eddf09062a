// The shape picture: cells are worked out per group of dims (all of them, or matmul's batch dims and matrix dims
// apart), then laid out as one table. See shape_picture.h for the marks.
#include "reports/shape_picture.h"

#include <algorithm>
#include <map>
#include <optional>
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

// What each operand of an op is called, for the rows of the picture.
std::string operand_label(const Case& c, std::optional<Family> family, size_t i) {
  static const std::vector<std::string> where = {"condition", "self", "other"}, lerp = {"self", "end", "weight"};
  std::string role = "shape";
  if (c.op == Op::where && i < 3) role = where[i];
  else if (out_of_place(c.op) == Op::lerp && i < 3) role = lerp[i];
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
  std::string out = "<div class=\"wide\"><table class=\"shapes\">\n" + group_row + "<tr><th>operand</th>";
  for (const Column& col : columns) {
    if (col.gap) out += "<th class=\"gap\"></th>";
    else
      out += fmt::format("<th class=\"num{}\">{}{}</th>", col.offending ? " offending" : "", html_escape(col.heading),
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
  return out + "</table></div>\n";
}

const char* kLegend =
    "<p class=\"legend\">Dims are right-aligned; · no dim; <strong>1 ↑ (1→n)</strong> a size-1 dim stretched to n "
    "by another operand; <strong>✗</strong> the offending dim: sizes that cannot be matched";

std::string broadcast_picture(const Case& c, std::optional<Family> family, Rule rule, const Outcomes& outcomes) {
  const auto results = result_shapes(outcomes);
  size_t width = 0;
  for (const Shape& s : c.shapes) width = std::max(width, s.size());
  for (const auto& r : results) width = std::max(width, r.first.size());
  if (width == 0) return "<p>Every operand (and result) is rank 0: there is no dim to align.</p>\n";

  std::vector<std::vector<Cell>> cells;
  const std::vector<bool> bad = group_cells(c.shapes, width, rule, cells);
  std::vector<Column> columns;
  for (size_t col = 0; col < width; ++col) columns.push_back({fmt::format("dim -{}", width - col), bad[col], false});
  std::vector<Row> rows;
  for (size_t i = 0; i < c.shapes.size(); ++i) rows.push_back({operand_label(c, family, i), false, cells[i]});
  for (const auto& [shape, names] : results)
    rows.push_back({"result (" + names + ")", true, plain_cells(shape, width)});
  return render(columns, "", rows) + kLegend + ".</p>\n";
}

// sum_to(self, target): self's sizes are summed down to the target's. A leading dim the target lacks is summed
// away, a target 1 under a larger size sums that dim to 1; the target may not have a dim self lacks, nor a size
// other than 1 that differs from self's (it must expand to self): such a reduction is impossible.
std::string sum_to_picture(const Case& c, const Outcomes& outcomes) {
  if (c.shapes.size() != 2) return broadcast_picture(c, Family::sum_to, Rule::broadcast, outcomes);
  const Shape& self = c.shapes[0];
  const Shape& target = c.shapes[1];
  const auto results = result_shapes(outcomes);
  size_t width = std::max(self.size(), target.size());
  for (const auto& r : results) width = std::max(width, r.first.size());
  if (width == 0) return "<p>Self and the target are rank 0: there is no dim to sum.</p>\n";
  Row self_row{operand_label(c, Family::sum_to, 0), false, {}};
  Row target_row{operand_label(c, Family::sum_to, 1), false, {}};
  std::vector<Column> columns;
  bool impossible = false;
  for (size_t col = 0; col < width; ++col) {
    const size_t d = width - col;
    const int64_t* s = at(self, d);
    const int64_t* t = at(target, d);
    Cell sc = s ? plain(*s) : kPad, tc = t ? plain(*t) : kPad;
    bool bad = false;
    if (s && !t) {
      sc = {fmt::format("{} Σ (summed away)", *s), "sum", "a leading dim the target lacks: summed away"};
    } else if (!s && t) {
      tc = offending(fmt::format("{} ✗", *t), "the target has a dim self lacks: it cannot be reached by summing");
      sc = offending("· ✗", "self has no such dim");
      bad = true;
    } else if (s && t && *t == 1 && *s != 1) {
      sc = {fmt::format("{} Σ (→1)", *s), "sum", "summed to 1"};
    } else if (s && t && *s != *t) {
      sc = offending(fmt::format("{} ✗", *s), "a target size other than 1 must equal self's");
      tc = offending(fmt::format("{} ✗", *t), "a target size other than 1 must equal self's");
      bad = true;
    }
    impossible = impossible || bad;
    self_row.cells.push_back(sc);
    target_row.cells.push_back(tc);
    columns.push_back({fmt::format("dim -{}", d), bad, false});
  }
  std::vector<Row> rows = {self_row, target_row};
  for (const auto& [shape, names] : results)
    rows.push_back({"result (" + names + ")", true, plain_cells(shape, width)});
  std::string out = render(columns, "", rows);
  if (impossible)
    out += "<p class=\"impossible\"><strong>✗ impossible reduction</strong>: the target " +
           html_escape(format_shape(target)) + " does not expand to self " + html_escape(format_shape(self)) +
           ", so no sum over self's dims gives it.</p>\n";
  return out +
         "<p class=\"legend\">Dims are right-aligned; · no dim; <strong>Σ</strong> a dim of self that is summed "
         "(away, or to the target's 1); <strong>✗</strong> a dim that makes the reduction impossible.</p>\n";
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

// The strict products and the fused products: each dim sits under the index it stands for (b, n, k, m), so the
// batch and the contracted dims show as such. Operand dims are placed by the op's own form (bmm's self is
// [b, n, k]); an operand of the wrong rank is right-aligned over its indices, a missing index marked and extra
// leading dims set apart. C (the fused ops' first operand) broadcasts to the product's shape, or in place must
// already have it.
struct ProductForm {
  std::vector<std::string> axes;             // index names, left to right: "b", "n", "k", "m"
  std::vector<std::vector<size_t>> operands;  // each product operand's indices
  std::vector<size_t> result;                 // the product's indices
  bool fused = false;                         // operand 0 is C
  bool summed_batch = false;                  // addbmm: the batch is summed over, like k
};

std::optional<ProductForm> product_form(ProductOp product) {
  const ProductForm mm{{"n", "k", "m"}, {{0, 1}, {1, 2}}, {0, 2}};
  const ProductForm bmm{{"b", "n", "k", "m"}, {{0, 1, 2}, {0, 2, 3}}, {0, 1, 3}};
  const ProductForm mv{{"n", "k"}, {{0, 1}, {1}}, {0}};
  const ProductForm dot{{"k"}, {{0}, {0}}, {}};
  const ProductForm outer{{"n", "m"}, {{0}, {1}}, {0, 1}};
  const auto fused = [](ProductForm f) {
    f.fused = true;
    return f;
  };
  switch (product) {
    case ProductOp::mm: return mm;
    case ProductOp::bmm: return bmm;
    case ProductOp::mv: return mv;
    case ProductOp::dot: return dot;
    case ProductOp::outer: return outer;
    case ProductOp::addmm: return fused(mm);
    case ProductOp::addmv: return fused(mv);
    case ProductOp::addr: return fused(outer);
    case ProductOp::baddbmm: return fused(bmm);
    case ProductOp::addbmm: {
      ProductForm f = fused(bmm);
      f.result = {1, 3};
      f.summed_batch = true;
      return f;
    }
    case ProductOp::matmul: return std::nullopt;  // batch dims broadcast: matmul_picture
  }
  return std::nullopt;
}

std::string axis_heading(const ProductForm& f, size_t a) {
  const std::string& x = f.axes[a];
  if (x == "b") return f.summed_batch ? "b (batch, summed)" : "b (batch)";
  if (x == "k") return "k (contracted)";
  return x == "n" ? "n (rows)" : "m (cols)";
}

// Where a shape's dims go under a list of indices, right-aligned: dims beyond them (leading) are extra, indices
// without a dim are missing.
struct Placement {
  Shape extra;
  std::map<size_t, int64_t> at;  // index -> size
  std::vector<size_t> missing;
};

Placement place(const Shape& s, const std::vector<size_t>& axes) {
  Placement p;
  const size_t r = s.size(), n = axes.size();
  for (size_t i = 0; i + n < r; ++i) p.extra.push_back(s[i]);
  for (size_t j = 0; j < n; ++j) {
    if (r + j >= n) p.at[axes[j]] = s[r + j - n];
    else p.missing.push_back(axes[j]);
  }
  return p;
}

std::string product_picture(const Case& c, const ProductForm& f, bool inplace, const Outcomes& outcomes) {
  const size_t first = f.fused ? 1 : 0;  // the first product operand
  std::vector<Placement> placed(c.shapes.size());
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    const bool is_c = f.fused && i == 0;
    const std::vector<size_t>& axes =
        is_c || i - first >= f.operands.size() ? f.result : f.operands[i - first];
    placed[i] = place(c.shapes[i], axes);
  }
  // The sizes the product operands give each index; more than one is a clash (no index broadcasts).
  std::vector<std::set<int64_t>> sizes(f.axes.size());
  for (size_t i = first; i < c.shapes.size(); ++i)
    for (const auto& [a, v] : placed[i].at) sizes[a].insert(v);
  const auto product_size = [&](size_t a) -> std::optional<int64_t> {
    return sizes[a].size() == 1 ? std::optional<int64_t>(*sizes[a].begin()) : std::nullopt;
  };
  const auto results = result_shapes(outcomes);
  std::vector<Placement> result_placed;
  size_t extra = 0;
  for (const Placement& p : placed) extra = std::max(extra, p.extra.size());
  for (const auto& r : results) {
    result_placed.push_back(place(r.first, f.result));
    extra = std::max(extra, result_placed.back().extra.size());
  }

  const auto extra_cells = [&](const Shape& dims, bool mark) {
    std::vector<Cell> cells(extra - dims.size(), kPad);
    for (int64_t v : dims)
      cells.push_back(mark ? offending(fmt::format("{} ✗", v), "a dim beyond what the op takes") : plain(v));
    if (extra > 0) cells.push_back({"", "gap", ""});
    return cells;
  };
  std::vector<Row> rows;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    const bool is_c = f.fused && i == 0;
    const Placement& p = placed[i];
    std::string label = is_c ? "#1 C" : fmt::format("#{} {}", i + 1, f.fused ? (i == 1 ? "A" : "B")
                                                                            : (i == 0 ? "self" : "other"));
    const size_t want = is_c ? f.result.size() : i - first < f.operands.size() ? f.operands[i - first].size() : 0;
    if (!is_c && c.shapes[i].size() != want)
      label += fmt::format(" ✗ {}-D, the op takes {}-D", c.shapes[i].size(), want);
    if (c.shapes[i].empty() && (is_c || want == 0)) label += " (rank 0)";
    Row row{label, false, extra_cells(p.extra, true)};
    for (size_t a = 0; a < f.axes.size(); ++a) {
      const auto at = p.at.find(a);
      const bool missing = std::find(p.missing.begin(), p.missing.end(), a) != p.missing.end();
      Cell cell = kPad;
      if (is_c && at != p.at.end()) {
        const std::optional<int64_t> to = product_size(a);
        const int64_t v = at->second;
        if (!to || v == *to) cell = plain(v);
        else if (v == 1 && inplace)
          cell = offending(fmt::format("1 ✗ (C cannot grow to {})", *to), "in place, C keeps its shape");
        else if (v == 1) cell = {fmt::format("1 ↑ (1→{})", *to), "stretch", "size 1 stretched: C broadcasts"};
        else cell = offending(fmt::format("{} ✗", v), "C does not broadcast to the product's shape");
      } else if (is_c && missing && inplace) {
        cell = offending("· ✗", "in place, C must already have the product's dims");
      } else if (!is_c && missing) {
        cell = offending("· ✗", "the operand lacks this dim: wrong rank");
      } else if (!is_c && at != p.at.end()) {
        const int64_t v = at->second;
        const bool summed = f.axes[a] == "k" || (f.axes[a] == "b" && f.summed_batch);
        if (sizes[a].size() > 1)
          cell = offending(fmt::format("{} ✗{}", v, summed ? " (k)" : ""),
                           summed ? "the contracted dims differ" : "these dims must be equal: no broadcasting");
        else if (summed)
          cell = {fmt::format("{} (k)", v), "matrix", f.axes[a] == "k" ? "contracted" : "summed over the batch"};
        else
          cell = plain(v);
      }
      row.cells.push_back(cell);
    }
    rows.push_back(row);
  }
  for (size_t r = 0; r < results.size(); ++r) {
    Row row{"result (" + results[r].second + ")", true, extra_cells(result_placed[r].extra, false)};
    for (size_t a = 0; a < f.axes.size(); ++a) {
      const auto at = result_placed[r].at.find(a);
      row.cells.push_back(at == result_placed[r].at.end() ? kPad : plain(at->second));
    }
    rows.push_back(row);
  }

  std::vector<Column> columns;
  for (size_t col = 0; col < extra; ++col) columns.push_back({"extra dim", false, false});
  if (extra > 0) columns.push_back({"", false, true});
  for (size_t a = 0; a < f.axes.size(); ++a) columns.push_back({axis_heading(f, a), false, false});
  for (const Row& row : rows)
    for (size_t col = 0; col < row.cells.size(); ++col)
      columns[col].offending = columns[col].offending || row.cells[col].cls == "clash";

  std::string group_row = "<tr class=\"groups\"><th></th>";
  if (extra > 0)
    group_row += fmt::format("<th colspan=\"{}\">dims beyond the op's rank</th><th class=\"gap\"></th>", extra);
  const bool batched = f.axes.front() == "b";
  if (batched)
    group_row += f.summed_batch ? "<th>batch: equal sizes, summed over</th>"
                                : "<th>batch: equal sizes, no broadcasting</th>";
  group_row += fmt::format("<th colspan=\"{}\">product dims: k contracted</th></tr>\n",
                           f.axes.size() - (batched ? 1 : 0));
  std::string legend = std::string(kLegend) +
                       "; each dim sits under the index it stands for, <strong>(k)</strong> the summed ones, which "
                       "must be equal in both operands; the product broadcasts nothing";
  if (f.fused)
    legend += inplace ? "; in place, C must already have the product's shape"
                      : "; only C broadcasts, to the product's shape";
  return render(columns, group_row, rows) + legend + ".</p>\n";
}

}  // namespace

std::string shape_picture_html(const Case& c, const Outcomes& outcomes) {
  const OpEntry* op = &entry(c.op);
  const Rule pointwise = is_inplace(op->op) ? Rule::inplace : Rule::broadcast;
  switch (op->family) {
    case Family::elementwise: case Family::inplace: case Family::unfused: case Family::autograd:
    case Family::reduction: case Family::reduce_dims:  // one operand: its shape (dims are in the heading)
    case Family::fill:                                  // self alone
      return broadcast_picture(c, op->family, pointwise, outcomes);
    case Family::broadcast_shapes: return broadcast_picture(c, op->family, Rule::broadcast, outcomes);
    case Family::expand: return broadcast_picture(c, op->family, Rule::expand, outcomes);
    case Family::sum_to: return sum_to_picture(c, outcomes);
    case Family::matmul: case Family::fused:
      if (const std::optional<ProductForm> form = product_form(*product_op(op->op)))
        return product_picture(c, *form, is_inplace(op->op), outcomes);
      return matmul_picture(c, outcomes);
  }
  return broadcast_picture(c, op->family, pointwise, outcomes);
}

}  // namespace bc
