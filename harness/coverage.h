// Generator coverage: which classes of case a run actually produced (rank, rank 0, size 0, singleton against
// non-singleton, near misses, operand count, outcome). A class a property needs but never saw is a bug, flagged
// in the results and the report.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// The classes one case belongs to, computed from its shapes and generator tags; for a value case also "op <op>"
// and the cells "cell <op> <dtype> <layout>" of op x dtype x layout that its operands fill (layouts as built, after
// fallbacks), with the op x dtype cells "cell <op> <dtype>" (an in-place form counted to its op).
// and "values <family> <dtype> <class>" for the value class each operand drew (data given: plain).
std::vector<std::string> coverage_classes(const Case& c);
// The name of that class: "values elementwise int8 overflow".
std::string value_class_cell(const std::string& family, DType dtype, ValueClass cls);

struct Coverage {
  // property -> class -> count (hashed: a run adds a dozen classes per case; JSON writes them sorted)
  std::map<std::string, std::unordered_map<std::string, long>> counts;
  // property -> classes its generator promises to produce
  std::map<std::string, std::vector<std::string>> required;

  void add(const std::string& property, const Case& c);
  void add_class(const std::string& property, const std::string& cls);
  // "engine ok", "engine error:broadcast": what an oracle's outcome was, named by the oracle.
  void add_outcome(const std::string& property, const std::pair<std::string, Outcome>& named);
  // "property: class" for each required class with zero cases.
  std::vector<std::string> missing() const;
  // Merge another run's counts (shards).
  void merge(const Coverage& other);
};

nlohmann::json to_json(const Coverage& c);
Coverage coverage_from_json(const nlohmann::json& j);

}  // namespace bc
