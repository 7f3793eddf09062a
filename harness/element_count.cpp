#include "harness/element_count.h"

#include <algorithm>
#include <limits>

namespace bc {

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
}

ElementCount times(ElementCount a, int64_t size) {
  const int64_t s = size < 0 ? 1 : size;
  if (s == 0) return {0, false};
  if (a.value == 0 && !a.overflow) return a;
  int64_t product = 0;
  if (a.overflow || __builtin_mul_overflow(a.value, s, &product)) return {kMax, true};
  return {product, false};
}

ElementCount plus(ElementCount a, ElementCount b) {
  int64_t sum = 0;
  if (a.overflow || b.overflow || __builtin_add_overflow(a.value, b.value, &sum)) return {kMax, true};
  return {sum, false};
}

ElementCount count_elements(const Shape& shape) {
  ElementCount n;
  for (int64_t d : shape) n = times(n, d);
  return n;
}

ElementCount broadcast_count(const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const Shape& s : shapes) rank = std::max(rank, s.size());
  ElementCount n;
  for (size_t back = 1; back <= rank; ++back) {
    int64_t widest = 1;
    bool empty = false;
    for (const Shape& s : shapes)
      if (s.size() >= back) {
        widest = std::max(widest, s[s.size() - back]);
        empty = empty || s[s.size() - back] == 0;
      }
    n = times(n, empty ? 0 : widest);
  }
  return n;
}

bool exceeds(ElementCount n, int64_t cap) { return n.overflow || n.value > cap; }

std::string to_string(ElementCount n) {
  return n.overflow ? "more than " + std::to_string(kMax) : std::to_string(n.value);
}

}  // namespace bc
