// Generators draw their ops from the op table (engine/op_table.h): every entry whose weight for that generator
// (properties/op_weights.h) is above 0 and that the generator can build (`keep`), in the table's order, so a new op
// with a weight is generated without other edits. Shrinks towards the table's first such op.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/op_table.h"
#include "properties/op_weights.h"
#include "properties/weighted.h"

namespace bc::gen {

inline std::vector<std::pair<uint64_t, const OpEntry*>> ops_weighted(int Weights::*weight,
                                                                     const std::function<bool(const OpEntry&)>& keep) {
  std::vector<std::pair<uint64_t, const OpEntry*>> out;
  for (const OpEntry& e : op_table())
    if (weights_of(e.op).*weight > 0 && (!keep || keep(e))) out.emplace_back(static_cast<uint64_t>(weights_of(e.op).*weight), &e);
  return out;
}

inline Weighted<const OpEntry*> op_from_table(int Weights::*weight, std::function<bool(const OpEntry&)> keep = {}) {
  return weighted(ops_weighted(weight, keep));
}

inline bool in_family(const OpEntry& e, std::initializer_list<Family> families) {
  for (Family f : families)
    if (e.family == f) return true;
  return false;
}

}  // namespace bc::gen
