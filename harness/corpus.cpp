#include "harness/corpus.h"

#include <algorithm>
#include <set>

#include "harness/input_lines.h"
#include "harness/utf8.h"

namespace bc {

std::string check_limits(const Case& c) {
  int64_t total = 0;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    // Count in double so that absurd sizes cannot overflow before they are refused.
    double n = 1;
    for (int64_t d : c.shapes[i]) n *= static_cast<double>(d < 0 ? 1 : d);
    if (n > static_cast<double>(kMaxElementsPerTensor))
      return "shapes[" + std::to_string(i) + "] " + format_shape(c.shapes[i]) + " has " +
             std::to_string(static_cast<long long>(n)) +
             " elements, over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor";
    total += static_cast<int64_t>(n);
  }
  // The result of a broadcast can be far larger than any operand: bound it by the product of the widest sizes.
  double result = 1;
  size_t rank = 0;
  for (const Shape& s : c.shapes) rank = std::max(rank, s.size());
  for (size_t back = 1; back <= rank; ++back) {
    // A 0 at a position makes the result empty there (or the case an error): nothing is allocated for it.
    int64_t widest_here = 1;
    bool empty = false;
    for (const Shape& s : c.shapes)
      if (s.size() >= back) {
        widest_here = std::max<int64_t>(widest_here, s[s.size() - back]);
        empty = empty || s[s.size() - back] == 0;
      }
    if (empty) widest_here = 0;
    result *= static_cast<double>(widest_here);
  }
  if (result > static_cast<double>(kMaxElementsPerTensor))
    return "the broadcast result would have up to " + std::to_string(static_cast<int64_t>(result)) +
           " elements, over the cap of " + std::to_string(kMaxElementsPerTensor) + " per tensor";
  if (static_cast<double>(total) + result > static_cast<double>(kMaxElementsPerCase))
    return "the case would hold over " + std::to_string(kMaxElementsPerCase) + " elements in all";
  return "";
}

Case parse_case_text(const std::string& text) {
  const std::string bad_bytes = utf8_problem(text);
  if (!bad_bytes.empty()) throw CaseError(bad_bytes);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
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
