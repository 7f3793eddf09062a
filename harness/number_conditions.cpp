#include "harness/number_conditions.h"

#include <cmath>
#include <optional>

#include "engine/scalar_overflow.h"

namespace bc {
namespace {

int rank_of(Category c) { return c == Category::boolean ? 0 : c == Category::integer ? 1 : 2; }
int rank_of(const Number& n) { return n.kind == Number::Kind::boolean ? 0 : n.kind == Number::Kind::integer ? 1 : 2; }

// The tensors the op computes with: every operand but the numbers and where's condition; their promoted dtype.
std::optional<DType> tensors_dtype(const Case& c) {
  std::optional<DType> t;
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (!number_of(c, k) && !(c.op == Op::where && k == 0))
      t = t ? promote_types(*t, dtype_of(c, k)) : dtype_of(c, k);
  return t;
}

}  // namespace

bool number_above_category(const Case& c) {
  const std::optional<DType> t = tensors_dtype(c);
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (const Number* n = number_of(c, k)) {
      if (!t && n->kind == Number::Kind::floating) return true;
      if (t && rank_of(*n) > rank_of(category(*t))) return true;
    }
  return false;
}

bool number_beyond_dtype(const Case& c) {
  const std::optional<DType> t = tensors_dtype(c);
  if (!t) return false;
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    const Number* n = number_of(c, k);
    if (!n || rank_of(*n) > rank_of(category(*t))) continue;  // a bool number fits every dtype
    // An int converts into an integer dtype with its range (and sign), into a floating one as a value (-2^63 is
    // -inf in float16).
    const bool integral = category(*t) != Category::floating;
    if (n->kind == Number::Kind::integer &&
        (scalar_overflow(static_cast<double>(n->i), integral, *t).has_value() || (is_unsigned(*t) && n->i < 0)))
      return true;
    if (n->kind == Number::Kind::floating && std::isfinite(n->f) && scalar_overflow(n->f, false, *t).has_value())
      return true;
  }
  return false;
}

}  // namespace bc
