// The xtensor value oracle's fill_ and zero_: `self.fill(value)` as people write it, on the base adaptor for a
// contiguous self (xcontainer::fill) and on self's view otherwise (xstrided_view::fill; an expanded self is the
// writable stride-0 view of self_of). The value reaches the element type by C++'s conversion, unchecked.
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/fill.h"
#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

// Whether C++ defines the conversion of `v` to T: a floating value to an integer type must be finite and in T's
// range once truncated, a finite double to float must be in float's range ([conv.fpint], [conv.double]).
template <class T>
bool converts(double v) {
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double>) return true;
  else if constexpr (std::is_floating_point_v<T>)
    return !std::isfinite(v) || std::fabs(v) <= static_cast<double>(std::numeric_limits<T>::max());
  else  // T's maximum + 1 is a power of 2, exact in double (2^63 for int64)
    return std::isfinite(v) && std::trunc(v) >= static_cast<double>(std::numeric_limits<T>::min()) &&
           std::trunc(v) < static_cast<double>(std::numeric_limits<T>::max()) + 1.0;
}

template <class S, class V>
Outcome fill_with(S& self, V value) {
  using T = typename S::value_type;
  if constexpr (std::is_floating_point_v<V>)
    if (!converts<T>(value))
      return Outcome::unsupported_because("C++ leaves the conversion of this value to the element type undefined");
  self.fill(value);
  return result(self);
}

}  // namespace

Outcome fill(const Case& c, Op op, const AnySelf& self) {
  const Scalar v = fill_value(op, scalar_of(c, "value"));
  const auto run = [&](auto* s) {
    if (v.integral) return fill_with(*s, static_cast<int64_t>(v.value));
    return fill_with(*s, v.value);
  };
  if (const auto* base = std::get_if<BaseSelf>(&self)) return std::visit(run, *base);
  return std::visit(run, std::get<ViewSelf>(self));
}

}  // namespace bc::xtv
