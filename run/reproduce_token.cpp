#include "run/reproduce_token.h"

#include <sstream>

#include "harness/number_text.h"
#include "harness/utf8.h"
#include "properties/registry.h"
#include "run/shrink.h"

namespace bc {

rc::Random case_random(uint64_t seed, const std::string& property, long index) {
  return rc::Random(rc::Random::Key{seed, stable_hash(property), static_cast<uint64_t>(index), 0x6263});
}

std::string reproduce_token(uint64_t seed, const std::string& property, long index,
                            const std::vector<std::size_t>& path) {
  std::string p;
  for (std::size_t step : path) p += (p.empty() ? "" : ".") + std::to_string(step);
  return "bc1/" + std::to_string(seed) + "/" + property + "/" + std::to_string(index) + "/" + (p.empty() ? "-" : p);
}

Case case_from_reproduce_token(const std::string& token) {
  std::vector<std::string> parts;
  std::stringstream in(token);
  for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
  if (parts.size() != 5 || parts[0] != "bc1" || token.back() == '/')
    throw CaseError("a reproduce token looks like bc1/SEED/PROPERTY/INDEX/PATH, got \"" + visible_utf8(token) + "\"");
  const Property* p = find_property(parts[2]);
  if (!p) throw CaseError("unknown property \"" + visible_utf8(parts[2]) + "\" in the token; valid: " + property_names());
  const std::optional<uint64_t> seed = parse_uint64(parts[1]);
  const std::optional<long> index = parse_count(parts[3]);
  std::vector<std::size_t> path;
  bool steps_ok = true;
  if (parts[4] != "-") {
    std::stringstream steps(parts[4] + ".");  // a trailing '.' keeps an empty last step visible
    for (std::string step; std::getline(steps, step, '.');) {
      const std::optional<long> k = parse_count(step);
      steps_ok = steps_ok && k.has_value();
      if (k) path.push_back(static_cast<std::size_t>(*k));
    }
  }
  if (!seed || !index || !steps_ok)
    throw CaseError("the numbers in \"" + visible_utf8(token) + "\" do not parse: SEED and INDEX are whole numbers, "
                    "PATH is \"-\" or whole numbers joined by '.'");
  std::optional<Case> c = follow_shrink_path(p->gen(case_random(*seed, p->name, *index), rc::kNominalSize), path);
  if (!c) throw CaseError("the shrink path in \"" + visible_utf8(token) + "\" does not exist for this generator");
  return *c;
}

}  // namespace bc
