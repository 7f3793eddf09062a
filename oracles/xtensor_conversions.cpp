#include "oracles/xtensor_conversions.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

namespace bc::xtv {

AnyTypeTag type_tag_of(DType t) {
  switch (t) {
    case DType::bool_: return TypeTag<bool>{};
    case DType::int64: return TypeTag<int64_t>{};
    case DType::float32: return TypeTag<float>{};
    case DType::float64: return TypeTag<double>{};
    case DType::int8: return TypeTag<int8_t>{};
    case DType::uint8: return TypeTag<uint8_t>{};
    case DType::int16: return TypeTag<int16_t>{};
    case DType::int32: return TypeTag<int32_t>{};
    case DType::float16: case DType::bfloat16: break;  // never converted (held_dtypes)
  }
  throw std::logic_error(std::string("xtensor conversions: no C++ type for ") + to_string(t));
}

namespace {

template <class T>
DType dtype_for() {
  if constexpr (std::is_same_v<T, bool>) return DType::bool_;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::int64;
  else if constexpr (std::is_same_v<T, float>) return DType::float32;
  else if constexpr (std::is_same_v<T, double>) return DType::float64;
  else if constexpr (std::is_same_v<T, int8_t>) return DType::int8;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::uint8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::int16;
  else {
    static_assert(std::is_same_v<T, int32_t>, "a conversion yields one of the oracle's element types");
    return DType::int32;
  }
}

// The type of `f(A(), B())` for the types of dtypes a and b, as a dtype.
template <class F>
DType pair_type(DType a, DType b, F f) {
  return std::visit(
      [&](auto ta, auto tb) {
        return dtype_for<decltype(f(typename decltype(ta)::type(), typename decltype(tb)::type()))>();
      },
      type_tag_of(a), type_tag_of(b));
}

DType usual_type(DType a, DType b) {
  return pair_type(a, b, [](auto x, auto y) { return x + y; });
}
DType promoted_type(DType a) {
  return pair_type(a, a, [](auto x, auto) { return +x; });
}
DType math_type(DType a, DType b) {
  return pair_type(a, b, [](auto x, auto y) { return std::pow(x, y); });
}
DType common_type(DType a, DType b) {
  return pair_type(a, b, [](auto x, auto y) -> std::common_type_t<decltype(x), decltype(y)> { return x; });
}
// The type of alpha * b, alpha as the case writes it (an int64_t or a double; absent: 1).
DType scaled_type(const Case& c, DType b) {
  if (scalar_of(c, "alpha").integral) return pair_type(DType::int64, b, [](auto s, auto y) { return s * y; });
  return pair_type(DType::float64, b, [](auto s, auto y) { return s * y; });
}

}  // namespace

std::vector<DType> held_dtypes(const Case& c, Conversion rule, std::vector<DType> held) {
  if (!kConverts || held.size() < 2) return held;
  for (DType t : held)
    if (t == DType::float16 || t == DType::bfloat16) return held;
  switch (rule) {
    case Conversion::none: break;
    case Conversion::usual: held[0] = held[1] = usual_type(held[0], held[1]); break;
    case Conversion::promoted:
      held[0] = promoted_type(held[0]);
      held[1] = promoted_type(held[1]);
      break;
    case Conversion::math: held[0] = held[1] = math_type(held[0], held[1]); break;
    case Conversion::common: held[0] = held[1] = common_type(held[0], held[1]); break;
    case Conversion::truth: held[0] = held[1] = DType::bool_; break;
    case Conversion::where:
      if (held.size() < 3) break;
      held[0] = DType::bool_;
      held[1] = held[2] = common_type(held[1], held[2]);
      break;
    case Conversion::scaled:
      held[1] = scaled_type(c, held[1]);
      held[0] = usual_type(held[0], held[1]);
      break;
    case Conversion::compound:
      held[1] = c.op == Op::add_ || c.op == Op::sub_ ? scaled_type(c, held[1]) : usual_type(held[0], held[1]);
      break;
  }
  return held;
}

}  // namespace bc::xtv
