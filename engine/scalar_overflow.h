// c10's checked conversion of a Scalar argument (alpha, value, ...) to a dtype's C++ type (Scalar::to<T>,
// c10::overflows): a value outside T's range is refused with LibTorch's message; an integral negative value may
// wrap into an unsigned type (uint8 takes -1 as 255), a floating one may not (-1.0 is refused for uint8).
#pragma once

#include <optional>

#include "engine/dtype.h"
#include "engine/error.h"

namespace bc {

// nullopt where the value converts; bool and float64 convert unchecked here.
std::optional<Error> scalar_overflow(double value, bool integral, DType to);

}  // namespace bc
