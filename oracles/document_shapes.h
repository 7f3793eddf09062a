// The documents voter's shape rules (oracles/document_oracle.h): broadcasting ([D1], [D2]), Tensor.expand ([D4]),
// a gradient summed back to an input's shape ([D5]), and the answers every rule gives: an error the documents
// predict (refused) or the silence where no document states the rule (silent).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/outcome.h"

namespace bc::documents {

// An error the documents predict: its kind and the rule's row, never a library's message.
Outcome refused(ErrorKind kind, const std::string& rule);
// Unsupported: "no document states " + what.
Outcome silent(const std::string& what);
// The shape of a Result as an outcome, an error as refused.
Outcome from_result(const Result<Shape>& r);

// [D1] Two shapes broadcast together, or nullopt where they do not.
std::optional<Shape> broadcast_pair(const Shape& a, const Shape& b);
// [D1] + [D2]: tensors of these shapes broadcast together.
Result<Shape> broadcast_tensors(const std::vector<Shape>& shapes);
// Whether `small` expands to `big`: no more dims, and each trailing size equal or 1 ([D5], [D7]).
bool expands_to(const Shape& small, const Shape& big);
// [D4] Tensor.expand of a tensor of shape `self` to `target`.
Outcome expand_outcome(const Shape& self, const Shape& target);
// [D5] A gradient of shape `from` summed back to an input's shape `to`.
Outcome sum_to_outcome(const Shape& from, const Shape& to);
// For each element of a tensor of shape `out` (row-major), the element of shape `in` that broadcasting reads.
std::vector<size_t> broadcast_sources(const Shape& out, const Shape& in);

}  // namespace bc::documents
