// The documents voter's operands (oracles/document_oracle.h): the case's operands as the op sees them, in the one
// floating dtype they share (no document states type promotion, [D11]), and what the documents leave unsaid about
// in-place memory.
#pragma once

#include <optional>
#include <vector>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc::documents {

struct Operands {
  std::vector<Shape> shapes;
  std::vector<std::vector<double>> values;  // row-major, as the op sees them (harness/operands.h)
  std::vector<Layout> layouts;              // as built
  DType dtype = DType::float32;             // the one floating dtype they share (a where's condition aside)
};
Operands operands_of(const Case& c, DType dtype);

// The one floating dtype of operands [first, end), or nullopt ([D11]: no document states type promotion).
std::optional<DType> shared_floating_dtype(const Case& c, size_t first);
bool wants_grad(const Case& c, size_t k);

// [D11] In place, the documents state the shape rule only: nothing about self's elements sharing memory with each
// other (an expanded self) or with another operand.
extern const char* const kMemoryRules;
bool inplace_memory_undocumented(const Operands& o);

inline Values stored(const std::vector<double>& v) { return Values(v); }

}  // namespace bc::documents
