// Two's-complement integer arithmetic without C++'s signed-overflow undefined behaviour: LibTorch's integer kernels
// wrap in practice, and so do the engine's.
#pragma once

#include <cstdint>

namespace bc {

inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
// The value an int64 becomes in a narrower two's-complement integer of `bits` (8, 16, 32; 64 keeps it), signed
// or not: the low bits, as C++'s (and so LibTorch's) integer conversions keep them.
inline int64_t wrap_to(int64_t v, int bits, bool is_unsigned) {
  if (bits >= 64) return v;
  const uint64_t mask = (uint64_t{1} << bits) - 1, low = static_cast<uint64_t>(v) & mask;
  if (is_unsigned || !(low >> (bits - 1))) return static_cast<int64_t>(low);
  return static_cast<int64_t>(low) - static_cast<int64_t>(uint64_t{1} << bits);
}
inline int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

}  // namespace bc
