// Drawing one of several weighted choices, shrinking towards the first (RapidCheck's own weightedElement never
// shrinks): generators list their choices smallest or simplest first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "properties/exec.h"

namespace bc::gen {

template <class T>
using Choices = std::vector<std::pair<uint64_t, T>>;

// The index a random source picks among weighted choices.
template <class T>
std::size_t pick(const Choices<T>& choices, const rc::Random& random) {
  uint64_t total = 0;
  for (const auto& c : choices) total += c.first;
  uint64_t at = rc::Random(random).next() % total;
  std::size_t index = 0;
  while (at >= choices[index].first) at -= choices[index++].first;
  return index;
}

// Weighted choices: a generator (generator()) that a bc::gen::exec body can also draw from directly with `*`.
// Values only, that draw takes the next random source itself and picks as the generator would, without
// RapidCheck's type-erased generator and shrinkable per draw (properties/exec.h); otherwise it is `*` of the
// generator.
template <class T>
class Weighted {
 public:
  explicit Weighted(Choices<T> choices) : choices_(std::move(choices)) {}

  rc::Gen<T> generator() const {
    auto choices = std::make_shared<const Choices<T>>(choices_);  // shared by the generator and the values it draws
    return rc::Gen<T>([choices](const rc::Random& random, int) {
      return rc::shrinkable::map(
          rc::shrinkable::shrinkRecur(pick(*choices, random),
                                      [](std::size_t x) { return rc::shrink::towards<std::size_t>(x, 0); }),
          [choices](std::size_t i) { return (*choices)[i].second; });
    });
  }

  T operator*() const {
    if (ValueHandler* values = ValueHandler::current()) return choices_[pick(choices_, values->next_random())].second;
    return *generator();
  }

 private:
  Choices<T> choices_;
};

template <class T>
Weighted<T> weighted(Choices<T> list) {
  return Weighted<T>(std::move(list));
}

// A value in [0, n) (n >= 1), shrinking towards 0.
inline int index_below(int n) { return *rc::gen::inRange(0, n); }

}  // namespace bc::gen
