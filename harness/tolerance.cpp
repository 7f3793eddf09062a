#include "harness/tolerance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bc {

Tolerance tolerance_for(DType dtype) {
  switch (dtype) {
    case DType::float32: return {1.3e-6, 1e-5};
    case DType::float64: return {1e-7, 1e-7};
    case DType::float16: return {1e-3, 1e-5};
    case DType::bfloat16: return {1.6e-2, 1e-5};
    case DType::bool_:
    case DType::int64:
    case DType::int8:
    case DType::uint8:
    case DType::int16:
    case DType::int32: return {0, 0};
  }
  return {0, 0};
}

namespace {

// How precise a floating dtype's values are, for "the least precise dtype involved": 8 significant bits for
// bfloat16 ... 53 for float64. Integers and bool compute in the default float (float32) where they compute in float.
int precision_bits(DType t) {
  switch (t) {
    case DType::bfloat16: return 8;
    case DType::float16: return 11;
    case DType::float64: return 53;
    default: return 24;
  }
}

}  // namespace

DType least_precise(const std::vector<DType>& dtypes) {
  DType out = DType::float64;
  for (DType d : dtypes) {
    const DType f = category(d) == Category::floating ? d : DType::float32;
    if (precision_bits(f) < precision_bits(out)) out = f;
  }
  return out;
}

Shape unravel(int64_t flat, const Shape& shape) {
  Shape index(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0) break;
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

namespace {

std::string index_text(const Shape& index) {
  std::string out = "(";
  for (size_t d = 0; d < index.size(); ++d) out += (d ? ", " : "") + std::to_string(index[d]);
  return out + (index.size() == 1 ? ",)" : ")");
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::optional<ValueMismatch> compare_values(const Values& expected, const Values& actual, DType dtype,
                                            const Shape& shape) {
  return compare_values(expected, actual, tolerance_for(dtype), shape);
}

Tolerance gradient_tolerance(const std::vector<DType>& case_dtypes, int64_t summed) {
  Tolerance t = tolerance_for(least_precise(case_dtypes));  // integers count as computed in float32
  const double scale = std::sqrt(static_cast<double>(std::max<int64_t>(summed, 1)));
  return {t.rtol * scale, t.atol * scale};
}

std::optional<ValueMismatch> compare_values(const Values& expected, const Values& actual, Tolerance tol,
                                            const Shape& shape) {
  ValueMismatch m;
  m.total = static_cast<long>(expected.size());
  if (expected.size() != actual.size()) {
    m.mismatched = m.total;
    m.text = "The numbers of elements differ: " + std::to_string(expected.size()) + " and " +
             std::to_string(actual.size());
    return m;
  }
  const bool integers = expected.integers() && actual.integers();
  if (integers) tol = {0, 0};
  for (size_t k = 0; k < expected.size(); ++k) {
    const double e = expected.as_double(k), a = actual.as_double(k);
    double abs = 0;
    if (integers) {
      const int64_t ei = expected.ints()[k], ai = actual.ints()[k];
      if (ei == ai) continue;
      abs = std::fabs(static_cast<double>(static_cast<long double>(ai) - static_cast<long double>(ei)));
    } else {
      if (std::isnan(e) && std::isnan(a)) continue;
      if (e == a) continue;  // equal infinities included
      abs = std::isnan(e) || std::isnan(a) ? NAN : std::fabs(a - e);
      const bool close = !std::isnan(abs) && std::isfinite(e) && std::isfinite(a) && abs <= tol.atol + tol.rtol * std::fabs(e);
      if (close) continue;
    }
    ++m.mismatched;
    const double rel = e == 0 ? INFINITY : abs / std::fabs(e);
    if (std::isnan(abs) || abs > m.max_abs || m.mismatched == 1) {
      m.max_abs = abs;
      m.abs_at = unravel(static_cast<int64_t>(k), shape);
    }
    if (std::isnan(rel) || rel > m.max_rel || m.mismatched == 1) {
      m.max_rel = rel;
      m.rel_at = unravel(static_cast<int64_t>(k), shape);
    }
  }
  if (m.mismatched == 0) return std::nullopt;
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * static_cast<double>(m.mismatched) / static_cast<double>(m.total));
  const bool exact = tol.atol == 0 && tol.rtol == 0;  // integers and bools
  m.text = std::string(exact ? "Tensor-likes are not equal!" : "Tensor-likes are not close!") +
           " Mismatched elements: " + std::to_string(m.mismatched) + " / " + std::to_string(m.total) + " (" + pct +
           "). Greatest absolute difference: " + number(m.max_abs) + " at index " + index_text(m.abs_at) +
           (exact ? "" : " (up to " + number(tol.atol) + " allowed)") + ". Greatest relative difference: " +
           number(m.max_rel) + " at index " + index_text(m.rel_at) +
           (exact ? "" : " (up to " + number(tol.rtol) + " allowed)") + ".";
  return m;
}

}  // namespace bc
