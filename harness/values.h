// The elements of one tensor (row-major), held exactly: integers (bool, int64) as int64_t, floats (float32,
// float64) as double. An int64 never passes through a double, so 9007199254740993, INT64_MAX and INT64_MIN stay
// what they are through cases, operands, outcomes, JSON and reports.
//
// A Values holds one kind, never a mix. Where a dtype is known (outcomes, gradients, operand bases), the kind is
// the dtype's (holds_integers). A case's given data keeps the kind it was written in (all JSON integers: integers;
// otherwise floats), and harness/operands converts it to the operand's dtype.
//
// JSON: integers as JSON integers; floats as JSON numbers (-0.0 keeps its sign; nlohmann writes 2.0 as "2.0") or
// the strings "nan", "inf", "-inf". Reading by dtype also takes an integer written as an integral float (2.0,
// as results of older versions hold them) and, for floats, integers.
//
// Adding a dtype: an integer dtype up to 64 bits or a floating one needs nothing here but holds_integers's answer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/dtype.h"

namespace bc {

// Whether a dtype's elements are integers. For a name this version does not know (a library's "int32"): names
// that begin with "int" or "uint", and "bool".
bool holds_integers(DType t);
bool holds_integers(const std::string& dtype_name);

class Values {
 public:
  Values() = default;  // no elements, floats
  Values(std::vector<double> floats) : floats_(std::move(floats)) {}  // NOLINT: a list of doubles is floats
  Values(std::initializer_list<double> floats) : floats_(floats) {}
  explicit Values(std::vector<int64_t> ints) : integers_(true), ints_(std::move(ints)) {}

  bool integers() const { return integers_; }
  size_t size() const { return integers_ ? ints_.size() : floats_.size(); }
  bool empty() const { return size() == 0; }
  const std::vector<int64_t>& ints() const { return ints_; }  // integers(); empty otherwise
  std::vector<int64_t>& ints() { return ints_; }
  const std::vector<double>& floats() const { return floats_; }  // !integers(); empty otherwise
  std::vector<double>& floats() { return floats_; }
  // Element k as a double: exact for floats, rounded for an integer beyond 2^53 (for arithmetic, never storage).
  double as_double(size_t k) const { return integers_ ? static_cast<double>(ints_[k]) : floats_[k]; }
  std::vector<double> to_doubles() const;
  void push_back(int64_t v) { ints_.push_back(v); }  // integers() only
  void push_back(double v) { floats_.push_back(v); }  // !integers() only

  // Exact: the same kind and elements (two empty Values are equal, whatever their kind); NaN equals NaN, -0.0
  // differs from 0.0.
  friend bool operator==(const Values& a, const Values& b);
  friend bool operator!=(const Values& a, const Values& b) { return !(a == b); }

 private:
  bool integers_ = false;
  std::vector<int64_t> ints_;
  std::vector<double> floats_;
};

// The elements of `v` converted to dtype `t` as a store into a tensor of `t` would: bool is "not zero", a float
// to an integer truncates (NaN, infinities and values out of range give INT64_MIN, as on x86), float32 rounds; the
// narrower dtypes (int8 ... int32, float16, bfloat16) convert as the engine's store does (engine/tensor.h: convert).
Values converted(const Values& v, DType t);

nlohmann::json to_json(const Values& v);
// The JSON text, for test failures and logs.
std::ostream& operator<<(std::ostream& out, const Values& v);
// An array read as integers or floats (above); throws std::runtime_error naming an element that is neither.
Values values_from_json(const nlohmann::json& j, bool integers);
// An array whose kind is what it was written in: integers when every element is a JSON integer or boolean.
Values values_as_written(const nlohmann::json& j);

}  // namespace bc
