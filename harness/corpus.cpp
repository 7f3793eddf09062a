#include "harness/corpus.h"

#include <algorithm>
#include <optional>
#include <set>

#include "harness/element_count.h"
#include "harness/input_lines.h"
#include "harness/utf8.h"

namespace bc {

namespace {

// A product a @ b as [batch..., n, k] @ [batch..., k, m] (a vector is a row on the left, a column on the right;
// outer is [n] x [m]): the result holds batch * n * m elements and takes batch * n * k * m multiply-adds. No
// implementation holds the terms: xtensor's sum over a broadcast product is lazy (xt::sum's default), so
// matmul([10000, 10, 10], [1, 10, 10]) peaks at 11 MB there, its operand and result, not the 40 MB of its terms.
struct ProductCounts {
  ElementCount result, terms;
};
ProductCounts product_counts(const Shape& a, const Shape& b, bool outer) {
  auto at = [](const Shape& s, size_t back) { return s.size() >= back ? s[s.size() - back] : int64_t{1}; };
  if (outer) {
    const ElementCount result = times(times(ElementCount{}, at(a, 1)), at(b, 1));
    return {result, result};
  }
  const int64_t n = a.size() >= 2 ? at(a, 2) : 1, m = b.size() >= 2 ? at(b, 1) : 1;
  const Shape batch_a(a.begin(), a.end() - std::min<size_t>(a.size(), 2));
  const Shape batch_b(b.begin(), b.end() - std::min<size_t>(b.size(), 2));
  const ElementCount result = times(times(broadcast_count({batch_a, batch_b}), n), m);
  return {result, times(result, at(a, 1))};
}

// A product's operands: matmul's two, a fused op's last two (addr's product is an outer one).
std::optional<ProductCounts> product_of(const Case& c, const OpEntry& op) {
  if (op.family == Family::matmul && c.shapes.size() == 2)
    return product_counts(c.shapes[0], c.shapes[1], op.op == Op::outer);
  if (op.family == Family::fused && c.shapes.size() == 3)
    return product_counts(c.shapes[1], c.shapes[2], op.op == Op::addr || op.op == Op::addr_);
  return std::nullopt;
}

// The elements the implementations allocate beyond the operands for this case: nothing for broadcast_shapes
// (views), the target for expand (xtensor materialises it) and sum_to, the result for the products, the
// broadcast of all operands for the pointwise ops.
struct Bound {
  ElementCount elements;
  const char* what;
};
Bound result_bound(const Case& c) {
  const Bound broadcast{broadcast_count(c.shapes), "the broadcast result"};
  const ElementCount none{0, false};
  const OpEntry* op = &entry(c.op);
  switch (op->family) {
    case Family::broadcast_shapes: return {none, ""};
    // The second shape is a target (a size list, -1 keeping the input's size), not an operand.
    case Family::expand: return {c.shapes.size() == 2 ? broadcast_count(c.shapes) : none, "the expanded result"};
    case Family::sum_to: return {c.shapes.size() == 2 ? count_elements(c.shapes[1]) : none, "the summed result"};
    case Family::matmul: case Family::fused: {
      const std::optional<ProductCounts> p = product_of(c, *op);
      return {p ? p->result : none, "the product"};
    }
    case Family::elementwise: case Family::inplace: case Family::unfused: case Family::autograd:
    case Family::reduction: case Family::reduce_dims:  // one operand reduced: its result is no larger
    case Family::fill:                                  // self, written in place
      return broadcast;
  }
  return broadcast;
}

std::string over_per_tensor(const std::string& what) {
  return what + " elements, over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor";
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
  const OpEntry* op = &entry(c.op);
  const bool target = (op->family == Family::expand || op->family == Family::sum_to);
  const size_t tensors = target ? std::min<size_t>(1, c.shapes.size()) : c.shapes.size();
  ElementCount total{0, false};
  for (size_t i = 0; i < tensors; ++i) {
    const ElementCount n = count_elements(c.shapes[i]);  // a -1 (expand's "keep") counts as 1
    if (exceeds(n, kMaxElementsPerTensor))
      return over_per_tensor("shapes[" + std::to_string(i) + "] " + format_shape(c.shapes[i]) + " has " + to_string(n));
    total = plus(total, n);
  }
  if (c.out) {
    const ElementCount n = count_elements(c.out->shape);
    if (exceeds(n, kMaxElementsPerTensor))
      return over_per_tensor("out " + format_shape(c.out->shape) + " has " + to_string(n));
    total = plus(total, n);
  }
  const Bound result = result_bound(c);
  if (exceeds(result.elements, kMaxElementsPerTensor))
    return over_per_tensor(std::string(result.what) + " would have up to " + to_string(result.elements));
  if (exceeds(plus(total, result.elements), kMaxElementsPerCase))
    return "the case would hold over " + std::to_string(kMaxElementsPerCase) + " elements in all";
  if (const std::optional<ProductCounts> p = op ? product_of(c, *op) : std::nullopt; p && exceeds(p->terms, kMaxProductTerms))
    return "the product would take " + to_string(p->terms) + " multiply-adds (batch x n x k x m), over the cap of " +
           std::to_string(kMaxProductTerms);
  return "";
}

Case parse_case_text(const std::string& text) {
  nlohmann::json j;
  try {
    j = parse_input_json(text);
  } catch (const InputError& e) {
    throw CaseError(e.what());
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
    const auto refuse = [&](int n, const std::string& why) {
      load.errors.push_back(visible_utf8(path + ":" + std::to_string(n) + ": " + why));
    };
    const std::string unreadable = read_input_lines(path, [&](int n, const std::string& line) {
      try {
        Case c = parse_case_text(line);
        if (!c.id.empty() && !ids.insert(c.id).second) throw CaseError("duplicate id \"" + c.id + "\"");
        load.entries.push_back({std::move(c), path, n});
      } catch (const CaseError& e) {
        refuse(n, e.what());
      }
    }, refuse);
    if (!unreadable.empty()) load.errors.push_back(unreadable);
  }
  return load;
}

}  // namespace bc
