#include "run/reproduce_token.h"

#include <sstream>

#include "harness/number_text.h"
#include "harness/utf8.h"
#include "properties/case_shrinks.h"
#include "properties/registry.h"
#include "run/shrink.h"

namespace bc {

rc::Random case_random(uint64_t seed, const std::string& property, long index) {
  return rc::Random(rc::Random::Key{seed, stable_hash(property), static_cast<uint64_t>(index), 0x6263});
}

namespace {

std::string path_text(const std::vector<std::size_t>& path) {
  std::string p;
  for (std::size_t step : path) p += (p.empty() ? "" : ".") + std::to_string(step);
  return p.empty() ? "-" : p;
}

// "-" or whole numbers joined by '.'; nullopt otherwise.
std::optional<std::vector<std::size_t>> path_from_text(const std::string& text) {
  std::vector<std::size_t> path;
  if (text == "-") return path;
  std::stringstream steps(text + ".");  // a trailing '.' keeps an empty last step visible
  for (std::string step; std::getline(steps, step, '.');) {
    const std::optional<long> k = parse_count(step);
    if (!k) return std::nullopt;
    path.push_back(static_cast<std::size_t>(*k));
  }
  return path;
}

}  // namespace

std::string reproduce_token(uint64_t seed, const std::string& property, long index,
                            const std::vector<std::size_t>& path, const std::vector<std::size_t>& case_path) {
  return "bc1/" + std::to_string(seed) + "/" + property + "/" + std::to_string(index) + "/" + path_text(path) +
         (case_path.empty() ? "" : "/" + path_text(case_path));
}

Case case_from_reproduce_token(const std::string& token) {
  std::vector<std::string> parts;
  std::stringstream in(token);
  for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
  if (parts.size() < 5 || parts.size() > 6 || parts[0] != "bc1" || token.back() == '/')
    throw CaseError("a reproduce token looks like bc1/SEED/PROPERTY/INDEX/PATH[/CASEPATH], got \"" +
                    visible_utf8(token) + "\"");
  const Property* p = find_property(parts[2]);
  if (!p) throw CaseError("unknown property \"" + visible_utf8(parts[2]) + "\" in the token; valid: " + property_names());
  const std::optional<uint64_t> seed = parse_uint64(parts[1]);
  const std::optional<long> index = parse_count(parts[3]);
  const std::optional<std::vector<std::size_t>> path = path_from_text(parts[4]);
  const std::optional<std::vector<std::size_t>> case_path = path_from_text(parts.size() == 6 ? parts[5] : "-");
  if (!seed || !index || !path || !case_path)
    throw CaseError("the numbers in \"" + visible_utf8(token) + "\" do not parse: SEED and INDEX are whole numbers, "
                    "PATH and CASEPATH are \"-\" or whole numbers joined by '.'");
  std::optional<Case> c = follow_shrink_path(p->gen(case_random(*seed, p->name, *index), rc::kNominalSize), *path);
  if (c && !case_path->empty()) c = follow_shrink_path(shrinkable_case(*c), *case_path);
  if (!c) throw CaseError("the shrink path in \"" + visible_utf8(token) + "\" does not exist for this generator");
  return *c;
}

}  // namespace bc
