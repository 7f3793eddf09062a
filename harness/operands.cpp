#include "harness/operands.h"

#include <cmath>
#include <limits>

#include "engine/overlap.h"
#include "harness/operand_views.h"

namespace bc {
namespace {

// splitmix64: a tiny, well-known 64-bit generator; ours to keep values stable across RapidCheck versions.
uint64_t next(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double draw(uint64_t& state, DType dtype, bool special) {
  const double inf = std::numeric_limits<double>::infinity();
  if (special && next(state) % 6 == 0) {
    if (dtype == DType::int64) {
      // Drawn as doubles (exact for these four; INT64_MAX is not drawn, so that results stay as they were).
      static const double ints[] = {-9223372036854775808.0, 4611686018427387904.0, -1, 0};
      return ints[next(state) % 4];
    }
    if (category(dtype) == Category::integer) {
      // The narrower integers' extremes, where a sum or a product wraps around (int8's 127 + 1 is -128).
      const int bits = integer_bits(dtype);
      const double top = std::ldexp(1.0, is_unsigned(dtype) ? bits : bits - 1) - 1;
      const double ints[] = {is_unsigned(dtype) ? 0.0 : -top - 1, top, -1, 0};
      return ints[next(state) % 4];
    }
    if (dtype == DType::float16) {  // float16's largest value overflows to infinity in a sum
      static const double floats[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0, 65504.0};
      return floats[next(state) % 5];
    }
    if (dtype != DType::bool_) {
      static const double floats[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0};
      return floats[next(state) % 4];
    }
  }
  switch (category(dtype)) {
    case Category::boolean: return static_cast<double>(next(state) % 2);
    case Category::integer:
      if (is_unsigned(dtype)) return static_cast<double>(next(state) % 11);  // 0..10
      return static_cast<double>(static_cast<int64_t>(next(state) % 11) - 5);  // -5..5
    case Category::floating: {
      // Halves in [-4, 4]: exact in float32, with negatives and zero, so that comparisons are not at the mercy of
      // rounding in the inputs.
      return static_cast<double>(static_cast<int64_t>(next(state) % 17) - 8) / 2.0;
    }
  }
  return 0;
}

}  // namespace

// `count` values drawn from `state`, in `dtype` (every draw is an integer where the dtype holds integers).
static Values drawn(uint64_t state, DType dtype, bool special, int64_t count) {
  std::vector<double> out(static_cast<size_t>(count));
  for (double& v : out) v = draw(state, dtype, special);
  return converted(Values(std::move(out)), dtype);
}

Values base_values(const Case& c, size_t operand, DType dtype, int64_t count) {
  if (!c.values || !c.values->data.empty()) return converted(std::vector<double>(static_cast<size_t>(count), 0.0), dtype);
  return drawn(c.values->seed * 0x100000001b3ull + operand + 1, dtype, c.values->special, count);
}

Values upstream_values(const Case& c, DType dtype, int64_t count) {
  if (!c.grad_seed) return converted(std::vector<double>(static_cast<size_t>(count), 1.0), dtype);
  return drawn(*c.grad_seed * 0x100000001b3ull + 0x5eed, dtype, false, count);
}

std::vector<OperandPlan> plan_operands(const Case& c) {
  std::vector<OperandPlan> plans = plan_views(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    OperandPlan& p = plans[k];
    if (p.views_operand < 0) p.base_values = base_values(c, k, p.dtype, numel(p.base_shape));
    if (c.values && k < c.values->data.size() && p.views_operand < 0) {
      // Given values are what the op sees: written in the dtype through the view into the (zeroed) base.
      const Values given = converted(c.values->data[k], p.dtype);
      const std::vector<int64_t> at = element_offsets(View{p.offset, p.shape, p.strides});
      for (size_t e = 0; e < at.size(); ++e) {
        const auto into = static_cast<size_t>(at[e]);
        if (given.integers()) p.base_values.ints()[into] = given.ints()[e];
        else p.base_values.floats()[into] = given.floats()[e];
      }
    }
  }
  return plans;
}

Values view_values(const OperandPlan& plan, const Values& storage) {
  Values out = storage.integers() ? Values(std::vector<int64_t>{}) : Values();
  for (int64_t at : element_offsets(View{plan.offset, plan.shape, plan.strides})) {
    if (storage.integers()) out.push_back(storage.ints()[static_cast<size_t>(at)]);
    else out.push_back(storage.floats()[static_cast<size_t>(at)]);
  }
  return out;
}

Values seen_values(const std::vector<OperandPlan>& plans, size_t k) {
  const OperandPlan& p = plans[k];
  return view_values(p, plans[p.views_operand >= 0 ? static_cast<size_t>(p.views_operand) : k].base_values);
}

}  // namespace bc
