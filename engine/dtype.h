// dtypes and PyTorch's type promotion among bool, the integers (uint8, int8, int16, int32, int64) and the floating
// dtypes (float16, bfloat16, float32, float64), with the categories bool < integer < floating. A 0-d tensor takes
// part in promotion only when its category is higher than that of the tensors with dims, and a wrapped number (a
// Python scalar) only when its category is higher than both; a float number counts as the default float dtype
// (float32), an int as int64, a bool as bool. Comparisons give bool; true division and atan2 of integers give the
// default float (float32).
// Rules as in c10's promoteTypes / at::native::result_type (ResultTypeState) and canCast, LibTorch 1.13.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.h"

namespace bc {

enum class DType { bool_, int64, float32, float64, int8, uint8, int16, int32, float16, bfloat16 };
enum class Category { boolean, integer, floating };

const std::vector<DType>& all_dtypes();
const char* to_string(DType t);          // "bool", "int8", "uint8", ... "bfloat16" (as cases and outcomes write them)
const char* torch_name(DType t);         // "Bool", "Char", "Byte", "Long", "Half", ... (as LibTorch's messages write them)
const char* cxx_type_name(DType t);      // "bool", "signed char", "long int", "c10::Half", ... (LibTorch's TypeMeta)
std::string torch_type_string(DType t);  // "CPUFloatType" (a CPU tensor's Tensor::toString(), in some messages)
std::optional<DType> dtype_from_string(std::string_view name);
std::string dtype_names();               // "bool, int64, float32, float64, int8, ..." (all_dtypes' order)
Category category(DType t);
size_t item_size(DType t);

// The narrowest integer dtypes' bits (8, 16, 32, 64) and whether they are signed; 0 for bool and floating dtypes.
int integer_bits(DType t);
bool is_unsigned(DType t);
// A floating dtype's significant bits (11 for float16, 8 for bfloat16, 24, 53: integers up to 2^bits are exact)
// and the exponent its largest finite value stays below (16, 128, 128, 1024); 0 for bool and the integers.
int significand_bits(DType t);
int max_exponent(DType t);
// The dtype a floating dtype's kernels compute in on CPU: float16 and bfloat16 compute in float32 and round the
// result at the store (c10::Half and c10::BFloat16 convert to float for every operation); else t itself.
DType compute_float(DType t);

// The smallest dtype both convert to without losing their category (promoteTypes): uint8 with int8 gives int16,
// float16 with bfloat16 gives float32, an integer with a floating dtype gives the floating one.
DType promote_types(DType a, DType b);

struct Operand {
  DType dtype;
  bool zero_dim;         // a 0-d tensor
  bool wrapped = false;  // a wrapped number (a Python int, float or bool: engine/scalar.h's Number), 0-d too
};

// The dtype an op computes in, from its tensor operands (result_type).
DType result_type(const std::vector<Operand>& operands);

// Whether a value of `from` may be written into a tensor of `to` (canCast): never floating to integer, never
// anything but bool to bool.
bool can_cast(DType from, DType to);

// LibTorch 1.13's error when an in-place op's result type cannot be cast to self's dtype.
Error cast_error(DType result, DType self);

}  // namespace bc
