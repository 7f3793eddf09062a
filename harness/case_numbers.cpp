// A case's number operands (harness/case.h): where they may stand, and how a case writes and reads them.
#include <cmath>
#include <cstdio>
#include <limits>

#include "harness/case.h"

namespace bc {

const Number* number_of(const Case& c, size_t k) {
  return k < c.numbers.size() && c.numbers[k] ? &*c.numbers[k] : nullptr;
}

bool has_numbers(const Case& c) {
  for (const auto& n : c.numbers)
    if (n) return true;
  return false;
}

bool may_be_number(Op op, size_t k) {
  if (op == Op::where) return k == 1 || k == 2;
  return k == 1 && binary_rule(op) != nullptr;
}

nlohmann::json to_json(const Number& n) {
  switch (n.kind) {
    case Number::Kind::boolean: return {{"number", n.i != 0}};
    case Number::Kind::integer: return {{"number", n.i}};
    case Number::Kind::floating: break;
  }
  if (std::isnan(n.f)) return {{"number", "nan"}};
  if (std::isinf(n.f)) return {{"number", n.f > 0 ? "inf" : "-inf"}};
  return {{"number", n.f}};  // nlohmann writes a float with its point (2.0) or exponent, -0.0 with its sign
}

Number number_from_json(const nlohmann::json& j, const std::string& where) {
  const std::string form = where + " must be a shape or a number such as {\"number\": 2} (a Python int), "
                           "{\"number\": 2.5} (a float: also \"nan\", \"inf\", \"-inf\") or {\"number\": true}";
  if (!j.is_object() || j.size() != 1 || !j.contains("number")) throw CaseError(form);
  const nlohmann::json& v = j["number"];
  if (v.is_boolean()) return Number::of_bool(v.get<bool>());
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      throw CaseError(where + " is an int beyond int64 (" + v.dump() + "): LibTorch's Scalar holds an int64");
    return Number::of_int(static_cast<int64_t>(v.get<uint64_t>()));
  }
  if (v.is_number_integer()) return Number::of_int(v.get<int64_t>());
  if (v.is_number_float()) return Number::of_float(v.get<double>());
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "nan") return Number::of_float(std::numeric_limits<double>::quiet_NaN());
    if (s == "inf") return Number::of_float(std::numeric_limits<double>::infinity());
    if (s == "-inf") return Number::of_float(-std::numeric_limits<double>::infinity());
  }
  throw CaseError(form);
}

std::string describe(const Number& n) {
  switch (n.kind) {
    case Number::Kind::boolean: return n.i ? "True" : "False";
    case Number::Kind::integer: return std::to_string(n.i);
    case Number::Kind::floating: break;
  }
  if (std::isnan(n.f)) return "nan";
  if (std::isinf(n.f)) return n.f > 0 ? "inf" : "-inf";
  return nlohmann::json(n.f).dump();  // the shortest text that reads back as the same double
}

}  // namespace bc
