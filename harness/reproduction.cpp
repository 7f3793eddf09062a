#include "harness/reproduction.h"

#include <algorithm>

#include "harness/join.h"

namespace bc {

Reproduction compare_runs(const std::vector<Outcomes>& runs) {
  Reproduction r;
  r.runs = static_cast<int>(runs.size());
  std::vector<std::string> names;  // in the first appearance's order
  for (const Outcomes& run : runs)
    for (const auto& [name, o] : run)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  std::vector<std::string> flaky, changing;
  for (const std::string& name : names) {
    std::vector<const Outcome*> seen;
    for (const Outcomes& run : runs)
      if (const Outcome* o = find_outcome(run, name)) seen.push_back(o);
    const long crashed = std::count_if(seen.begin(), seen.end(), [](const Outcome* o) { return o->status == Status::crash; });
    const long timed_out = std::count_if(seen.begin(), seen.end(), [](const Outcome* o) { return o->status == Status::timeout; });
    const long total = static_cast<long>(seen.size());
    const std::string of = " of " + std::to_string(total) + " runs";
    if (crashed + timed_out > 0 && crashed + timed_out < total) {
      if (crashed) flaky.push_back(name + " crashed in " + std::to_string(crashed) + of);
      if (timed_out) flaky.push_back(name + " timed out in " + std::to_string(timed_out) + of);
      continue;
    }
    // Every run crashed (or timed out): the same failure, whichever signal or delay it came with.
    if (total > 0 && crashed + timed_out == total) continue;
    std::vector<const Outcome*> distinct;
    for (const Outcome* o : seen)
      if (std::none_of(distinct.begin(), distinct.end(), [&](const Outcome* d) { return *d == *o; }))
        distinct.push_back(o);
    if (distinct.size() > 1)
      changing.push_back(name + " gave " + std::to_string(distinct.size()) + " different results in " +
                         std::to_string(total) + " runs");
  }
  r.kind = !flaky.empty() ? "flaky" : !changing.empty() ? "nondeterministic" : "";
  r.details = flaky;
  r.details.insert(r.details.end(), changing.begin(), changing.end());
  return r;
}

std::string describe(const Reproduction& r) {
  if (r.runs == 0) return "";
  if (r.stable()) return "reproduced in " + std::to_string(r.runs) + " of " + std::to_string(r.runs) + " runs";
  return r.kind + ": " + join(r.details, "; ");
}

nlohmann::json to_json(const Reproduction& r) {
  return {{"kind", r.kind.empty() ? "reproduced" : r.kind}, {"runs", r.runs}, {"details", r.details}};
}

Reproduction reproduction_from_json(const nlohmann::json& j) {
  Reproduction r;
  r.kind = j.value("kind", "");
  if (r.kind == "reproduced") r.kind.clear();
  r.runs = j.value("runs", 0);
  r.details = j.value("details", std::vector<std::string>{});
  return r;
}

}  // namespace bc
