#include "harness/corpus.h"

#include <algorithm>
#include <set>

#include "harness/input_lines.h"
#include "harness/utf8.h"

namespace bc {

namespace {

// The widest size at each position from the right over `shapes` (0 where any is 0), as a product in double so
// that absurd sizes cannot overflow before they are refused.
double broadcast_bound(const std::vector<Shape>& shapes) {
  double result = 1;
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  for (size_t back = 1; back <= rank; ++back) {
    int64_t widest_here = 1;
    bool empty = false;
    for (const Shape& s : shapes)
      if (s.size() >= back) {
        widest_here = std::max<int64_t>(widest_here, s[s.size() - back]);
        empty = empty || s[s.size() - back] == 0;
      }
    result *= empty ? 0.0 : static_cast<double>(widest_here);
  }
  return result;
}

// A product a @ b as [batch..., n, k] @ [batch..., k, m] (a vector is a row on the left, a column on the right;
// outer is [n] x [m]): the result holds batch * n * m elements, and a library that contracts by broadcasting
// (xtensor) first holds batch * n * k * m.
double product_bound(const Shape& a, const Shape& b, bool outer) {
  auto at = [](const Shape& s, size_t back) { return s.size() >= back ? static_cast<double>(s[s.size() - back]) : 1.0; };
  if (outer) return at(a, 1) * at(b, 1);
  const double n = a.size() >= 2 ? at(a, 2) : 1, k = at(a, 1), m = b.size() >= 2 ? at(b, 1) : 1;
  const Shape batch_a(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  const Shape batch_b(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  return broadcast_bound({batch_a, batch_b}) * n * m * std::max(k, 1.0);
}

// The elements the implementations allocate beyond the operands for this case: nothing for broadcast_shapes
// (views), the target for expand (xtensor materialises it) and sum_to, the contraction for the products, the
// broadcast of all operands for the pointwise ops.
struct Bound {
  double elements;
  const char* what;
};
Bound result_bound(const Case& c) {
  const Bound broadcast{broadcast_bound(c.shapes), "the broadcast result"};
  const OpEntry* op = find_op(c.op);
  if (!op) return broadcast;
  switch (op->family) {
    case Family::broadcast_shapes: return {0, ""};
    // The second shape is a target (a size list, -1 keeping the input's size), not an operand.
    case Family::expand: return {c.shapes.size() == 2 ? broadcast_bound(c.shapes) : 0, "the expanded result"};
    case Family::sum_to: return {c.shapes.size() == 2 ? broadcast_bound({c.shapes[1]}) : 0, "the summed result"};
    case Family::matmul:
      return {c.shapes.size() == 2 ? product_bound(c.shapes[0], c.shapes[1], c.op == "outer") : 0, "the product"};
    case Family::fused:
      return {c.shapes.size() == 3 ? product_bound(c.shapes[1], c.shapes[2], c.op.rfind("addr", 0) == 0) : 0,
              "the product"};
    case Family::elementwise: case Family::inplace: case Family::unfused: case Family::autograd:
    case Family::reduction: case Family::reduce_dims:  // one operand reduced: its result is no larger
    case Family::fill:                                  // self, written in place
      return broadcast;
  }
  return broadcast;
}

}  // namespace

std::string check_limits(const Case& c) {
  if (c.shapes.size() > kMaxOperands)
    return "the case has " + std::to_string(c.shapes.size()) + " operands, over the cap of " +
           std::to_string(kMaxOperands);
  for (size_t i = 0; i < c.shapes.size(); ++i)
    if (c.shapes[i].size() > kMaxRank)
      return "shapes[" + std::to_string(i) + "] has rank " + std::to_string(c.shapes[i].size()) +
             ", over the cap of " + std::to_string(kMaxRank) + " dims";
  // expand and sum_to take a tensor and a target shape; every other op's shapes are all tensors.
  const OpEntry* op = find_op(c.op);
  const bool target = op && (op->family == Family::expand || op->family == Family::sum_to);
  const size_t tensors = target ? std::min<size_t>(1, c.shapes.size()) : c.shapes.size();
  double total = 0;
  for (size_t i = 0; i < tensors; ++i) {
    const double n = broadcast_bound({c.shapes[i]});  // a -1 (expand's "keep") counts as 1
    if (n > static_cast<double>(kMaxElementsPerTensor))
      return "shapes[" + std::to_string(i) + "] " + format_shape(c.shapes[i]) + " has " +
             std::to_string(static_cast<long long>(n)) +
             " elements, over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor";
    total += n;
  }
  if (c.out) {
    const double n = broadcast_bound({c.out->shape});
    if (n > static_cast<double>(kMaxElementsPerTensor))
      return "out " + format_shape(c.out->shape) + " has " + std::to_string(static_cast<long long>(n)) +
             " elements, over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor";
    total += n;
  }
  const Bound result = result_bound(c);
  if (result.elements > static_cast<double>(kMaxElementsPerTensor))
    return std::string(result.what) + " would have up to " + std::to_string(static_cast<long long>(result.elements)) +
           " elements, over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor";
  if (total + result.elements > static_cast<double>(kMaxElementsPerCase))
    return "the case would hold over " + std::to_string(kMaxElementsPerCase) + " elements in all";
  return "";
}

Case parse_case_text(const std::string& text) {
  const std::string bad_bytes = utf8_problem(text);
  if (!bad_bytes.empty()) throw CaseError(bad_bytes);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // bad syntax, or a number beyond double (out_of_range 406)
    throw CaseError(std::string("not valid JSON: ") + e.what());
  }
  Case c;
  try {
    c = case_from_json(j);
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong JSON type the reader did not name
    throw CaseError(std::string("a field has the wrong type: ") + e.what());
  }
  const std::string over = check_limits(c);
  if (!over.empty()) throw CaseError(over);
  return c;
}

CorpusLoad load_corpus(const std::vector<std::string>& paths) {
  CorpusLoad load;
  std::set<std::string> ids;
  for (const std::string& path : paths) {
    const std::string unreadable = read_input_lines(path, [&](int n, const std::string& line) {
      try {
        Case c = parse_case_text(line);
        if (!c.id.empty() && !ids.insert(c.id).second) throw CaseError("duplicate id \"" + c.id + "\"");
        load.entries.push_back({std::move(c), path, n});
      } catch (const CaseError& e) {
        load.errors.push_back(visible_utf8(path + ":" + std::to_string(n) + ": " + e.what()));
      }
    });
    if (!unreadable.empty()) load.errors.push_back(unreadable);
  }
  return load;
}

}  // namespace bc
