#include "engine/scalar_overflow.h"

#include <cmath>
#include <limits>

#include "engine/error_texts.h"

namespace bc {

std::optional<Error> scalar_overflow(double value, bool integral, DType to) {
  const char* type = nullptr;  // c10's names (the C++ types of AT_FORALL_SCALAR_TYPES)
  double lowest = 0, max = 0;
  switch (to) {
    case DType::bool_:
    case DType::float64: return std::nullopt;
    case DType::int8: type = "int8_t", lowest = -128, max = 127; break;
    case DType::uint8: type = "uint8_t", lowest = 0, max = 255; break;
    case DType::int16: type = "int16_t", lowest = -32768, max = 32767; break;
    case DType::int32: type = "int", lowest = -2147483648.0, max = 2147483647.0; break;
    case DType::int64: type = "int64_t", lowest = -9223372036854775808.0, max = 9223372036854775807.0; break;
    case DType::float16: type = "at::Half", lowest = -65504, max = 65504; break;
    case DType::bfloat16: type = "at::BFloat16", max = std::ldexp(255.0, 120), lowest = -max; break;
    case DType::float32: type = "float", max = std::numeric_limits<float>::max(), lowest = -max; break;
  }
  bool overflows = false;
  if (category(to) == Category::floating) overflows = !std::isinf(value) && (value < lowest || value > max);
  else if (integral && is_unsigned(to)) overflows = value > max || (value < 0 && -value > max);
  else overflows = std::isnan(value) || value < lowest || value > max;
  if (!overflows) return std::nullopt;
  return make_error(ErrorText::scalar_overflow, {type});
}

}  // namespace bc
