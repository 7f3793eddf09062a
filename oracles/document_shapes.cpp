#include "oracles/document_shapes.h"

#include <algorithm>

// The rows [D1] ... [D11] cited are those of docs/notes/document-voter.md, which names each rule's document.
// Nothing here calls the engine's code: the rules are restated from the documents, small and on purpose naive.

namespace bc::documents {

Outcome refused(ErrorKind kind, const std::string& rule) { return Outcome::failure(kind, "the documents: " + rule); }
Outcome silent(const std::string& what) { return Outcome::unsupported_because("no document states " + what); }

Outcome from_result(const Result<Shape>& r) {
  if (r.ok()) return Outcome::success(r.value());
  return refused(r.error().kind, r.error().message);
}


// [D1] Compared from the trailing dimension, each pair of sizes is equal, or one is 1, or one is missing; the
// result takes the size that is not 1 (seed 000's infer_size, NumPy's broadcasting page).
std::optional<Shape> broadcast_pair(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t k = 0; k < rank; ++k) {  // k counts from the trailing dimension
    const int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
    const int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[rank - 1 - k] = x == 1 ? y : x;
  }
  return out;
}

// [D1] + [D2]: tensors broadcast together. Tensors of one shape need no broadcasting (seed 003: "same shapes are
// always broadcastable"); otherwise each needs at least one dimension (seeds 003 and 001).
Result<Shape> broadcast_tensors(const std::vector<Shape>& shapes) {
  if (std::all_of(shapes.begin(), shapes.end(), [&](const Shape& s) { return s == shapes.front(); }))
    return shapes.front();
  for (const Shape& s : shapes)
    if (s.empty()) return Error{ErrorKind::broadcast, "[D2] each tensor must have at least one dimension"};
  Shape out = shapes.front();
  for (size_t k = 1; k < shapes.size(); ++k) {
    std::optional<Shape> next = broadcast_pair(out, shapes[k]);
    if (!next) return Error{ErrorKind::broadcast, "[D1] sizes differ where neither is 1"};
    out = *next;
  }
  return out;
}

// Whether `small` expands to `big`: no more dims, and each trailing size equal or 1 ([D5], [D7]).
bool expands_to(const Shape& small, const Shape& big) {
  if (small.size() > big.size()) return false;
  for (size_t k = 0; k < small.size(); ++k) {
    const int64_t s = small[small.size() - 1 - k], b = big[big.size() - 1 - k];
    if (s != b && s != 1) return false;
  }
  return true;
}

// [D4] Tensor.expand: -1 keeps a size; new dims go in front and cannot be -1; only singleton dims grow.
Outcome expand_outcome(const Shape& self, const Shape& target) {
  if (target.size() < self.size()) return refused(ErrorKind::expand, "[D4] a size for every dimension");
  const size_t lead = target.size() - self.size();
  Shape out(target.size());
  bool undocumented = false;
  for (size_t k = 0; k < target.size(); ++k) {
    const int64_t want = target[k];
    undocumented = undocumented || want < -1;
    if (k < lead) {
      if (want == -1) return refused(ErrorKind::expand, "[D4] -1 in a new leading dimension");
      out[k] = want;
      continue;
    }
    const int64_t have = self[k - lead];
    if (want == -1 || want == have) {
      out[k] = have;
    } else if (have == 1) {
      undocumented = undocumented || want == 0;  // "expanded to a larger size": 0 is not larger
      out[k] = want;
    } else {
      return refused(ErrorKind::expand, "[D4] only singleton dimensions expand");
    }
  }
  if (undocumented) return silent("expand to a size below -1, or a singleton to size 0");
  return Outcome::success(out);
}

// [D5] A gradient summed back to an input's shape: the input's shape must expand to the gradient's.
Outcome sum_to_outcome(const Shape& from, const Shape& to) {
  if (!expands_to(to, from)) return refused(ErrorKind::sum_to, "[D5] the shape must expand to the gradient's");
  return Outcome::success(to);
}

// For each element of a tensor of shape `out` (row-major), the element of shape `in` that broadcasting reads
// ([D1]: a size-1 or missing dim repeats its one element). `in` has at most `out`'s rank.
std::vector<size_t> broadcast_sources(const Shape& out, const Shape& in) {
  std::vector<size_t> sources(static_cast<size_t>(numel(out)));
  const Shape strides = contiguous_strides(in);
  const size_t lead = out.size() - in.size();
  Shape index(out.size(), 0);
  for (size_t& source : sources) {
    int64_t at = 0;
    for (size_t d = 0; d < in.size(); ++d)
      if (in[d] != 1) at += index[lead + d] * strides[d];
    source = static_cast<size_t>(at);
    for (size_t d = out.size(); d-- > 0;) {
      if (++index[d] < out[d]) break;
      index[d] = 0;
    }
  }
  return sources;
}

}  // namespace bc::documents
