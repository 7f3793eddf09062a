#include "harness/value_conditions.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "harness/operands.h"

namespace bc {
namespace {

// The largest exponent + 1 of the narrowest floating dtype among the operands and dtype=; 0 when there is none.
int narrowest_exponent(const Case& c, const std::vector<OperandPlan>& plans) {
  int e = 0;
  auto see = [&e](DType t) {
    if (category(t) == Category::floating) e = e == 0 ? max_exponent(t) : std::min(e, max_exponent(t));
  };
  for (const OperandPlan& p : plans) see(p.dtype);
  if (c.dtype_arg) see(*c.dtype_arg);
  return e;
}

// Whether some floating operand holds a value for which `hit(|x|, its dtype)` is true.
template <class Hit>
bool some_floating_value(const std::vector<OperandPlan>& plans, Hit hit) {
  for (size_t k = 0; k < plans.size(); ++k) {
    if (category(plans[k].dtype) != Category::floating) continue;
    const Values seen = seen_values(plans, k);
    for (size_t i = 0; i < seen.size(); ++i)
      if (hit(std::fabs(seen.as_double(i)), plans[k].dtype)) return true;
  }
  return false;
}

}  // namespace

bool large_values(const Case& c) {
  if (!c.values || c.shapes.empty()) return false;
  const std::vector<OperandPlan> plans = plan_operands(c);
  const int e = narrowest_exponent(c, plans);
  if (e == 0) return false;
  const double least = std::ldexp(1.0, e / 2);
  return some_floating_value(plans, [least](double x, DType) { return std::isfinite(x) && x >= least; });
}

bool subnormal_values(const Case& c) {
  if (!c.values || c.shapes.empty()) return false;
  const auto below_normal = [](double x, int exponent) { return x > 0 && x < std::ldexp(1.0, 2 - exponent); };
  const std::vector<OperandPlan> plans = plan_operands(c);
  if (some_floating_value(plans, [&](double x, DType t) { return below_normal(x, max_exponent(t)); })) return true;
  // A float number computes in the narrowest floating tensor's dtype, or in the default dtype (float32) beside no
  // floating tensor: 1e-40 is subnormal there, though not in float64 (its own kind's dtype, checked above).
  int exponent = max_exponent(DType::float32);
  bool floating_tensor = false;
  for (const OperandPlan& p : plans)
    if (!p.number && category(p.dtype) == Category::floating) {
      exponent = floating_tensor ? std::min(exponent, max_exponent(p.dtype)) : max_exponent(p.dtype);
      floating_tensor = true;
    }
  for (const OperandPlan& p : plans)
    if (p.number && p.number->kind == Number::Kind::floating && below_normal(std::fabs(p.number->f), exponent))
      return true;
  return false;
}

bool infinite_values(const Case& c) {
  if (!c.values || c.shapes.empty()) return false;
  return some_floating_value(plan_operands(c), [](double x, DType) { return std::isinf(x); });
}

bool zero_divisor(const Case& c) {
  static const Op divisions[] = {Op::div,       Op::div_,       Op::remainder,    Op::remainder_,
                                 Op::fmod,      Op::fmod_,      Op::floor_divide, Op::floor_divide_};
  if (!c.values || c.shapes.size() < 2 || std::find(std::begin(divisions), std::end(divisions), c.op) == std::end(divisions))
    return false;
  const std::vector<OperandPlan> plans = plan_operands(c);
  if (plans.size() < 2 || plans[1].number || category(plans[1].dtype) != Category::floating) return false;
  const Values seen = seen_values(plans, 1);
  for (size_t i = 0; i < seen.size(); ++i)
    if (seen.as_double(i) == 0) return true;
  return false;
}

}  // namespace bc
