#include "harness/number_text.h"

#include <charconv>
#include <cmath>

namespace bc {

namespace {

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char ch : text)
    if (ch < '0' || ch > '9') return false;
  return true;
}

template <typename T>
std::optional<T> parse_whole(std::string_view text) {
  if (!all_digits(text)) return std::nullopt;
  T v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<uint64_t> parse_uint64(std::string_view text) { return parse_whole<uint64_t>(text); }
std::optional<long> parse_count(std::string_view text) { return parse_whole<long>(text); }

std::optional<double> parse_positive_seconds(std::string_view text) {
  // Digits, at most one point, an optional exponent: from_chars alone would also take "nan", "inf" and "-1".
  if (text.empty() || !((text[0] >= '0' && text[0] <= '9') || text[0] == '.')) return std::nullopt;
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

}  // namespace bc
