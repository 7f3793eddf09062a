// The xtensor value oracle's in-place ops: xtensor's computed assignment (a += b, ...) into the left side, which is
// the base adaptor for a contiguous self and a real view otherwise (xtensor_inplace_view.cpp), so that the result
// is written through to the base's storage as an in-place op on a view is.
#include <functional>
#include <numeric>

#include <xtensor/xoperation.hpp>
#include <xtensor/xstrides.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

template <class E>
XShape shape_of(const E& e) {
  return XShape(e.shape().begin(), e.shape().end());
}

}  // namespace

bool writes_past_the_view(const XShape& self, const XShape& other) {
  if (other.size() > self.size()) return false;  // xt::broadcast refuses a target of lower rank before writing
  XShape broadcast = self;
  try {
    xt::broadcast_shape(other, broadcast);
  } catch (const xt::broadcast_error&) {
    return false;  // the op itself fails on the shapes before writing
  }
  return std::accumulate(broadcast.begin(), broadcast.end(), std::size_t{1}, std::multiplies<>()) >
         std::accumulate(self.begin(), self.end(), std::size_t{1}, std::multiplies<>());
}

Outcome computed_assignment(const Case& c, const AnySelf& self, const AnyInput& other) {
  if (c.op != Op::add_ && c.op != Op::sub_ && c.op != Op::mul_ && c.op != Op::div_ && c.op != Op::bitwise_and_ &&
      c.op != Op::bitwise_or_ && c.op != Op::bitwise_xor_)
    return Outcome::unsupported_because(std::string("xtensor has no computed assignment for ") + to_string(c.op));
  if (const auto* base = std::get_if<BaseSelf>(&self)) return assign_into_base(c, *base, other);
  const ViewSelf& view = std::get<ViewSelf>(self);
  if (writes_past_the_view(std::visit([](auto* s) { return shape_of(*s); }, view),
                           std::visit([](const auto& o) { return shape_of(o); }, other)))
    return Outcome::unsupported_because(
        "xtensor's computed assignment into a view copies a result larger than the view past the view's end "
        "(xview_semantic::operator=, xstrided_view assign_temporary_impl): undefined behaviour, not run");
  return assign_into_view(c, view, other);
}

// A contiguous self is the base adaptor: container semantics (xsemantic.hpp xcontainer_semantic), which evaluate
// the result into a temporary and then try to take it over, resizing the adaptor if the shape changed.
Outcome assign_into_base(const Case& c, const BaseSelf& self, const AnyInput& other) {
  return std::visit([&](auto* a, const auto& b) { return assign(c, *a, b); }, self, other);
}

}  // namespace bc::xtv
