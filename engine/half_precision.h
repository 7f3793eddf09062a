// Rounding to the two 16-bit floating formats, as a store into a float16 or bfloat16 tensor does: the value
// first becomes a float (as c10::Half and c10::BFloat16 are built from float), then rounds to nearest, ties to even,
// with subnormals, overflow to infinity, NaN kept and the sign of zero kept. Results are returned as exact doubles.
#pragma once

namespace bc {

double round_to_float16(double v);   // IEEE binary16: 11 significant bits, exponents -14..15 (max 65504)
double round_to_bfloat16(double v);  // bfloat16: 8 significant bits, float32's exponent range

}  // namespace bc
