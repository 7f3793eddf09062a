#include "properties/zero_scalar.h"

#include <cmath>

#include "properties/weighted.h"

namespace bc::gen {

Scalar scalar_with_zeros(std::vector<std::pair<uint64_t, double>> choices) {
  choices.emplace_back(1, 0.0);
  choices.emplace_back(1, -0.0);
  const double x = *weighted(choices);
  const bool whole = x == std::floor(x) && !std::signbit(x);
  return Scalar{x, whole && *weighted<bool>({{1, true}, {1, false}})};
}

bool has_zero_scalar(const Case& c) {
  for (const auto& [name, s] : c.scalars)
    if (s.value == 0) return true;
  return false;
}

bool draw_special(const Case& c, uint64_t one_in) {
  if (has_zero_scalar(c)) return *weighted<bool>({{1, false}, {2, true}});
  return *weighted<bool>({{one_in - 1, false}, {1, true}});
}

void tag_zero_scalar(Case& c) {
  if (!has_zero_scalar(c)) return;
  c.tags.push_back("zero scalar");
  if (c.values && c.values->special) c.tags.push_back("zero scalar with special values");
}

}  // namespace bc::gen
