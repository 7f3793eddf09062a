// What the xtensor variants (oracles/xtensor_variants.h) share: the ops a variant runs (VariantOp, from a list of
// the nine ops they run), the shell that turns a path function into an oracle (the common preconditions and
// xtensor's exceptions as errors), and the expression of an op on two operands of one element type.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include <xtensor/xoperation.hpp>

#include "oracles/oracle.h"
#include "oracles/xtensor_operands.h"

namespace bc::xtv {

enum class VariantOp { add, sub, mul, div, where };

struct VariantRequest {
  VariantOp op;
  bool inplace;  // add_, sub_, mul_, div_
};

// The request for an op a variant runs; nullopt for every other op.
std::optional<VariantRequest> variant_request(Op op);

// A path's own refusal: why it cannot express a case that passed the shell's preconditions, from the case alone
// (no xtensor), or nullopt. It holds the path's checks that come before any xtensor code, in the path's order.
using PathRefusal = std::optional<std::string> (*)(const Case& c, VariantRequest r);
// What variant `name` answers without running `c`: unsupported with the reason when the shell's preconditions (an
// op no variant runs, no values, gradients, out=, mixed dtypes) or then `why` (may be null) refuse it; an error
// when `why` throws, as the path would. Nothing when the path runs the case. The variant oracle applies it first,
// and a run applies it in its own process (oracles/gated_oracle.h), so a worker receives only what it runs.
std::optional<Outcome> variant_refusal(const std::string& name, const Case& c, PathRefusal why);

// A path: the outcome of a value-level case whose op is `r` (variant_refusal said nothing); it may throw xtensor's
// exceptions, which the shell reports as errors as the xtensor oracle does.
using VariantPath = Outcome (*)(const Case& c, VariantRequest r);
std::unique_ptr<Oracle> make_variant_oracle(std::string name, PathRefusal why, VariantPath path);

// Whether every operand the op computes on (where's condition aside) has one dtype, and the reason when not.
std::optional<std::string> mixed_dtypes(const Case& c, VariantRequest r);

// `f(a op b)` with the case's alpha as the xtensor oracle writes it (a + alpha * b, alpha a C++ number); a path
// instantiated without alpha (WithAlpha false) must refuse a case that has one.
template <bool WithAlpha = true, class A, class B, class F>
Outcome with_binary(const Case& c, VariantOp op, const A& a, const B& b, F&& f) {
  const bool alpha = WithAlpha && c.scalars.count("alpha") > 0;
  switch (op) {
    case VariantOp::add:
      if constexpr (WithAlpha)
        if (alpha) return with_scalar(c, "alpha", [&](auto s) { return f(a + s * b); });
      return f(a + b);
    case VariantOp::sub:
      if constexpr (WithAlpha)
        if (alpha) return with_scalar(c, "alpha", [&](auto s) { return f(a - s * b); });
      return f(a - b);
    case VariantOp::mul: return f(a * b);
    case VariantOp::div: return f(a / b);
    case VariantOp::where: break;
  }
  return Outcome::unsupported_because("where has three operands");
}

// The compound assignment operator, as a type: `assign(self, Sign<'+'>{}, e)` writes `self += e` in its form.
template <char C>
using Sign = std::integral_constant<char, C>;

// Why an in-place op cannot run on a container that owns its data (a copy): self is not contiguous (a view of the
// case's memory) or an operand views self's memory; nullopt when it can, and for out-of-place ops.
std::optional<std::string> not_owned(const std::vector<OperandPlan>& plans, VariantRequest r);

// `self op= other` (with alpha) on the left side `self`, through `assign`'s form of computed assignment (plain, or
// noalias), and self's values after it.
template <bool WithAlpha = true, class S, class B, class Assign>
Outcome assign_op(const Case& c, VariantOp op, S& self, const B& other, Assign&& assign) {
  auto scaled = [&](auto sign) {
    if constexpr (WithAlpha) {
      if (c.scalars.count("alpha") > 0) {
        with_scalar(c, "alpha", [&](auto s) {
          assign(self, sign, s * other);
          return Outcome();
        });
        return;
      }
    }
    assign(self, sign, other);
  };
  switch (op) {
    case VariantOp::add: scaled(Sign<'+'>{}); return result(self);
    case VariantOp::sub: scaled(Sign<'-'>{}); return result(self);
    case VariantOp::mul: assign(self, Sign<'*'>{}, other); return result(self);
    case VariantOp::div: assign(self, Sign<'/'>{}, other); return result(self);
    case VariantOp::where: break;
  }
  return Outcome::unsupported_because("where has no in-place form");
}

// `self op= e` as plain computed assignment.
struct CompoundAssign {
  template <class S, char C, class E>
  void operator()(S& self, Sign<C>, const E& e) const {
    if constexpr (C == '+') self += e;
    else if constexpr (C == '-') self -= e;
    else if constexpr (C == '*') self *= e;
    else self /= e;
  }
};

// Visits two operands of one wide element type (a pair of different types is not instantiated: mixed_dtypes refuses
// it; nor are the narrow integers: unsupported_dtype refuses them).
template <class F>
Outcome same_type(const AnyInput& a, const AnyInput& b, F&& f) {
  return std::visit(
      [&](const auto& x, const auto& y) -> Outcome {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::decay_t<decltype(y)>> && !is_narrow_v<value_type_of<T>>) return f(x, y);
        else return Outcome::unsupported_because("operands of different dtypes, or of a narrow integer dtype");
      },
      a, b);
}

// `f(xt::where(condition, a, b))`, a condition of any wide dtype and a and b of one.
template <class F>
Outcome with_where(const AnyInput& condition, const AnyInput& a, const AnyInput& b, F&& f) {
  return std::visit(
      [&](const auto& k) {
        if constexpr (is_narrow_v<value_type_of<decltype(k)>>)
          return Outcome::unsupported_because("a narrow condition");
        else
          return same_type(a, b, [&](const auto& x, const auto& y) { return f(xt::where(k, x, y)); });
      },
      condition);
}

}  // namespace bc::xtv
