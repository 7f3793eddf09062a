#include "run/finite_difference.h"

#include <cmath>

#include "harness/operands.h"

namespace bc {
namespace {

constexpr double kAtol = 1e-5, kRtol = 1e-3;  // torch.autograd.gradcheck's defaults

// The case in float64, contiguous, with the values the op saw given outright (so that they can be perturbed).
Case in_float64(const Case& c) {
  Case out = c;
  const std::vector<OperandPlan> plans = plan_operands(c);
  out.values = ValueSpec{};
  for (size_t k = 0; k < plans.size(); ++k) out.values->data.push_back(plans[k].number ? Values() : seen_values(plans, k));  // a number keeps itself
  out.dtypes.clear();
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    const DType t = dtype_of(c, k);
    out.dtypes.push_back(category(t) == Category::floating ? DType::float64 : t);
  }
  out.layouts.clear();
  out.modify.reset();
  return out;
}

// The forward's output values (empty when the forward fails).
std::vector<double> forward(const Case& forward_only, size_t count, Oracle& engine) {
  const Outcome o = engine.run(forward_only);
  if (o.status != Status::ok || o.values.size() != count) return {};
  return o.values.to_doubles();
}

}  // namespace

FiniteDifferenceResult check_finite_differences(const Case& c, Oracle& engine, int per_operand) {
  FiniteDifferenceResult result;
  const Case with_grads = in_float64(c);
  const Outcome analytic = engine.run(with_grads);
  if (analytic.status != Status::ok || analytic.grads.size() != c.shapes.size()) return result;
  const std::vector<double> upstream = upstream_values(with_grads, DType::float64, numel(analytic.shape)).floats();
  Case f = with_grads;
  f.requires_grad.clear();
  const std::vector<double> f0 = forward(f, upstream.size(), engine);
  if (f0.size() != upstream.size()) return result;
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    if (!analytic.grads[k]) continue;
    std::vector<double>& xs = f.values->data[k].floats();  // a float64 operand's, since it has a gradient
    const size_t n = xs.size();
    const size_t step = std::max<size_t>(1, n / static_cast<size_t>(per_operand));
    for (size_t i = 0; i < n; i += step) {
      const double x = xs[i], h = 1e-6 * std::max(1.0, std::fabs(x));
      xs[i] = x + h;
      const std::vector<double> up = forward(f, upstream.size(), engine);
      xs[i] = x - h;
      const std::vector<double> down = forward(f, upstream.size(), engine);
      xs[i] = x + h / 2;
      const std::vector<double> half = forward(f, upstream.size(), engine);
      xs[i] = x;
      // Smooth at x when, for every output element, the two one-sided differences agree, and the forward one
      // agrees with the one over half the step (a jump, as sign's at 0, looks alike from both sides: its
      // difference quotient doubles when the step halves).
      bool smooth = up.size() == f0.size() && down.size() == f0.size() && half.size() == f0.size();
      double central = 0, noise = 0;  // noise: what float64 rounding of the outputs alone can move `central` by
      const auto close = [](double p, double q) { return std::fabs(p - q) <= kAtol + kRtol * std::fabs(p + q) / 2; };
      for (size_t e = 0; smooth && e < f0.size(); ++e) {
        const double ahead = (up[e] - f0[e]) / h, behind = (f0[e] - down[e]) / h, ahead_half = (half[e] - f0[e]) / (h / 2);
        smooth = std::isfinite(ahead) && std::isfinite(behind) && close(ahead, behind) && close(ahead, ahead_half);
        central += upstream[e] * (up[e] - down[e]) / (2 * h);
        noise += std::fabs(upstream[e] * f0[e]) * 2.3e-16 / h;
      }
      smooth = smooth && noise <= kAtol;
      const double want = analytic.grads[k]->values.as_double(i);
      if (!smooth || !std::isfinite(central) || !std::isfinite(want)) {
        ++result.skipped;
        continue;
      }
      ++result.compared;
      if (std::fabs(central - want) > kAtol + kRtol * std::fabs(central) && result.violation.empty())
        result.violation = "operand " + std::to_string(k) + " element " + std::to_string(i) + ": analytic gradient " +
                           std::to_string(want) + ", central finite difference " + std::to_string(central);
    }
  }
  return result;
}

}  // namespace bc
