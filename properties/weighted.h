// Drawing one of several weighted choices, shrinking towards the first (RapidCheck's own weightedElement never
// shrinks): generators list their choices smallest or simplest first.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <rapidcheck.h>

namespace bc::gen {

// The choices are shared, not copied, by the generator and each value it draws (a generator draws thousands).
template <class T>
rc::Gen<T> weighted(std::vector<std::pair<uint64_t, T>> list) {
  auto choices = std::make_shared<const std::vector<std::pair<uint64_t, T>>>(std::move(list));
  return rc::Gen<T>([choices](const rc::Random& random, int) {
    uint64_t total = 0;
    for (const auto& c : *choices) total += c.first;
    uint64_t pick = rc::Random(random).next() % total;
    std::size_t index = 0;
    while (pick >= (*choices)[index].first) pick -= (*choices)[index++].first;
    return rc::shrinkable::map(
        rc::shrinkable::shrinkRecur(index, [](std::size_t x) { return rc::shrink::towards<std::size_t>(x, 0); }),
        [choices](std::size_t i) { return (*choices)[i].second; });
  });
}

// A value in [0, n) (n >= 1), shrinking towards 0.
inline int index_below(int n) { return *rc::gen::inRange(0, n); }

}  // namespace bc::gen
