#include "harness/values.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/tensor.h"

namespace bc {

bool holds_integers(DType t) { return category(t) != Category::floating; }

bool holds_integers(const std::string& dtype_name) {
  if (std::optional<DType> t = dtype_from_string(dtype_name)) return holds_integers(*t);
  return dtype_name == "bool" || dtype_name.rfind("int", 0) == 0 || dtype_name.rfind("uint", 0) == 0;
}

std::vector<double> Values::to_doubles() const {
  if (!integers_) return floats_;
  return std::vector<double>(ints_.begin(), ints_.end());
}

bool operator==(const Values& a, const Values& b) {
  if (a.empty() && b.empty()) return true;
  if (a.integers_ != b.integers_) return false;
  if (a.integers_) return a.ints_ == b.ints_;
  if (a.floats_.size() != b.floats_.size()) return false;
  for (size_t k = 0; k < a.floats_.size(); ++k) {
    const double x = a.floats_[k], y = b.floats_[k];
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x != y || std::signbit(x) != std::signbit(y)) return false;
  }
  return true;
}

namespace {

int64_t truncated(double v) {
  // 2^63 is the first double above INT64_MAX; -2^63 is INT64_MIN itself.
  if (!(v > -9223372036854775809.0 && v < 9223372036854775808.0)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

}  // namespace

Values converted(const Values& v, DType t) {
  if (t != DType::bool_ && (item_size(t) < 4 || t == DType::int32)) {  // the narrower dtypes, as a store does
    std::vector<Value> out;
    for (size_t k = 0; k < v.size(); ++k) {
      out.push_back(convert(v.integers() ? Value::of_int(v.ints()[k]) : Value::of_float(v.floats()[k]), t));
    }
    if (holds_integers(t)) {
      std::vector<int64_t> ints;
      for (const Value& e : out) ints.push_back(e.i);
      return Values(std::move(ints));
    }
    std::vector<double> floats;
    for (const Value& e : out) floats.push_back(e.f);
    return Values(std::move(floats));
  }
  if (holds_integers(t)) {
    std::vector<int64_t> out;
    out.reserve(v.size());
    for (size_t k = 0; k < v.size(); ++k) {
      const int64_t i = v.integers() ? v.ints()[k] : truncated(v.floats()[k]);
      out.push_back(t == DType::bool_ ? (v.integers() ? i != 0 : v.floats()[k] != 0) : i);
    }
    return Values(std::move(out));
  }
  std::vector<double> out;
  out.reserve(v.size());
  for (size_t k = 0; k < v.size(); ++k) {
    // An integer goes to float32 in one rounding (int64 -> double -> float could round twice).
    if (t == DType::float32) out.push_back(v.integers() ? static_cast<float>(v.ints()[k]) : static_cast<float>(v.floats()[k]));
    else out.push_back(v.as_double(k));
  }
  return Values(std::move(out));
}

nlohmann::json to_json(const Values& v) {
  nlohmann::json out = nlohmann::json::array();
  if (v.integers()) {
    for (int64_t i : v.ints()) out.push_back(i);
    return out;
  }
  for (double f : v.floats()) {
    if (std::isnan(f)) out.push_back("nan");
    else if (std::isinf(f)) out.push_back(f > 0 ? "inf" : "-inf");
    else out.push_back(f);
  }
  return out;
}

std::ostream& operator<<(std::ostream& out, const Values& v) { return out << to_json(v).dump(); }

namespace {

[[noreturn]] void not_a(const char* what, const nlohmann::json& e) {
  throw std::runtime_error(std::string("not ") + what + ": " + e.dump());
}

int64_t integer_of(const nlohmann::json& e) {
  if (e.is_boolean()) return e.get<bool>() ? 1 : 0;
  if (e.is_number_unsigned()) {
    if (e.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) not_a("an int64", e);
    return static_cast<int64_t>(e.get<uint64_t>());
  }
  if (e.is_number_integer()) return e.get<int64_t>();
  if (e.is_number_float()) {  // 2.0, as an older version wrote integers
    const double d = e.get<double>();
    if (d != std::trunc(d) || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) not_a("an int64", e);
    return static_cast<int64_t>(d);
  }
  not_a("an integer", e);
}

double float_of(const nlohmann::json& e) {
  if (e.is_boolean()) return e.get<bool>() ? 1 : 0;
  if (e.is_number()) return e.get<double>();
  if (e.is_string()) {
    const std::string s = e.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  not_a("a value", e);
}

const nlohmann::json& array_of(const nlohmann::json& j) {
  if (!j.is_array()) throw std::runtime_error("values must be an array, not " + j.dump());
  return j;
}

}  // namespace

Values values_from_json(const nlohmann::json& j, bool integers) {
  Values out = integers ? Values(std::vector<int64_t>{}) : Values();
  for (const nlohmann::json& e : array_of(j)) {
    if (integers) out.push_back(integer_of(e));
    else out.push_back(float_of(e));
  }
  return out;
}

Values values_as_written(const nlohmann::json& j) {
  bool integers = true;
  for (const nlohmann::json& e : array_of(j)) integers = integers && (e.is_number_integer() || e.is_boolean());
  return values_from_json(j, integers && !j.empty());
}

}  // namespace bc
