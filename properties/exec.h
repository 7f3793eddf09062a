// bc::gen::exec is rc::gen::exec (a generator written as code that draws with `*gen`) with one more way to run:
// inside a `ValuesOnly` scope it draws the same value without recording RapidCheck's recipe, the shrink tree that
// only a finding needs. docs/notes/generation.md says why and how the two ways are kept equal.
#pragma once

#include <type_traits>
#include <utility>

#include <rapidcheck.h>

namespace bc::gen {

// While one is alive on this thread, bc::gen::exec generators (and those built on them) yield their value alone:
// a shrinkable without shrinks, which draws the value each time it is asked for it (so ask once). Everything else
// about generation is unchanged.
class ValuesOnly {
 public:
  ValuesOnly();
  ~ValuesOnly();
  ValuesOnly(const ValuesOnly&) = delete;
  ValuesOnly& operator=(const ValuesOnly&) = delete;

 private:
  bool outer_;
};

bool values_only();

// RapidCheck's generation handler for `*gen` without the recipe: the draws split the same random source in the
// same order as rc::gen::detail::ExecHandler does for a fresh recipe, so the values are the same.
class ValueHandler : public rc::gen::detail::GenerationHandler {
 public:
  ValueHandler(const rc::Random& random, int size) : random_(random), size_(size) {}
  rc::detail::Any onGenerate(const rc::Gen<rc::detail::Any>& gen) override;

  // The handler `*gen` would call now, if it is a ValueHandler: a generator that knows how it draws (weighted.h)
  // can then take the next random source itself, skipping `*gen`'s type-erased generator and shrinkable.
  static ValueHandler* current();
  // The random source of the next draw, as onGenerate splits it.
  rc::Random next_random() { return random_.split(); }

 private:
  rc::Random random_;
  int size_;
};

// As rc::gen::exec for a callable without arguments (the only kind broadcheck writes).
template <class Callable>
rc::Gen<std::invoke_result_t<Callable>> exec(Callable callable) {
  using T = std::invoke_result_t<Callable>;
  const rc::Gen<T> recorded = rc::gen::exec(callable);
  return rc::Gen<T>([recorded, callable](const rc::Random& random, int size) {
    if (!values_only()) return recorded(random, size);
    // Drawn when asked for, so that the value is handed over, not copied out of the shrinkable.
    return rc::shrinkable::lambda([callable, random, size] {
      ValueHandler handler(random, size);
      rc::detail::ImplicitParam<rc::gen::detail::param::CurrentHandler> current(&handler);
      return callable();
    });
  });
}

}  // namespace bc::gen
