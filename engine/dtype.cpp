#include "engine/dtype.h"

#include <algorithm>
#include <limits>

#include "engine/error_texts.h"

namespace bc {

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> all = {DType::bool_, DType::int64,  DType::float32, DType::float64, DType::int8,
                                         DType::uint8, DType::int16,  DType::int32,   DType::float16, DType::bfloat16};
  return all;
}

const char* to_string(DType t) {
  switch (t) {
    case DType::bool_: return "bool";
    case DType::int64: return "int64";
    case DType::float32: return "float32";
    case DType::float64: return "float64";
    case DType::int8: return "int8";
    case DType::uint8: return "uint8";
    case DType::int16: return "int16";
    case DType::int32: return "int32";
    case DType::float16: return "float16";
    case DType::bfloat16: return "bfloat16";
  }
  return "float32";
}

// c10::toString(ScalarType).
const char* torch_name(DType t) {
  switch (t) {
    case DType::bool_: return "Bool";
    case DType::int64: return "Long";
    case DType::float32: return "Float";
    case DType::float64: return "Double";
    case DType::int8: return "Char";
    case DType::uint8: return "Byte";
    case DType::int16: return "Short";
    case DType::int32: return "Int";
    case DType::float16: return "Half";
    case DType::bfloat16: return "BFloat16";
  }
  return "Float";
}

// caffe2::TypeMeta::name() of each element type, which GCC's __PRETTY_FUNCTION__ spells.
const char* cxx_type_name(DType t) {
  switch (t) {
    case DType::bool_: return "bool";
    case DType::int64: return "long int";
    case DType::float32: return "float";
    case DType::float64: return "double";
    case DType::int8: return "signed char";
    case DType::uint8: return "unsigned char";
    case DType::int16: return "short int";
    case DType::int32: return "int";
    case DType::float16: return "c10::Half";
    case DType::bfloat16: return "c10::BFloat16";
  }
  return "float";
}

std::string torch_type_string(DType t) { return std::string("CPU") + torch_name(t) + "Type"; }

std::optional<DType> dtype_from_string(std::string_view name) {
  for (DType t : all_dtypes())
    if (name == to_string(t)) return t;
  return std::nullopt;
}

std::string dtype_names() {
  std::string out;
  for (DType t : all_dtypes()) out += (out.empty() ? "" : ", ") + std::string(to_string(t));
  return out;
}

Category category(DType t) {
  switch (t) {
    case DType::bool_: return Category::boolean;
    case DType::int8:
    case DType::uint8:
    case DType::int16:
    case DType::int32:
    case DType::int64: return Category::integer;
    case DType::float16:
    case DType::bfloat16:
    case DType::float32:
    case DType::float64: return Category::floating;
  }
  return Category::floating;
}

size_t item_size(DType t) {
  switch (t) {
    case DType::bool_:
    case DType::int8:
    case DType::uint8: return 1;
    case DType::int16:
    case DType::float16:
    case DType::bfloat16: return 2;
    case DType::int32:
    case DType::float32: return 4;
    case DType::int64:
    case DType::float64: return 8;
  }
  return 8;
}

int integer_bits(DType t) { return category(t) == Category::integer ? static_cast<int>(item_size(t)) * 8 : 0; }

bool is_unsigned(DType t) { return t == DType::uint8; }

int significand_bits(DType t) {
  switch (t) {
    case DType::float16: return 11;
    case DType::bfloat16: return 8;
    case DType::float32: return std::numeric_limits<float>::digits;
    case DType::float64: return std::numeric_limits<double>::digits;
    case DType::bool_: case DType::uint8: case DType::int8: case DType::int16: case DType::int32: case DType::int64:
      return 0;
  }
  return 0;
}

int max_exponent(DType t) {
  switch (t) {
    case DType::float16: return 16;
    case DType::bfloat16: case DType::float32: return std::numeric_limits<float>::max_exponent;
    case DType::float64: return std::numeric_limits<double>::max_exponent;
    case DType::bool_: case DType::uint8: case DType::int8: case DType::int16: case DType::int32: case DType::int64:
      return 0;
  }
  return 0;
}

DType compute_float(DType t) { return t == DType::float16 || t == DType::bfloat16 ? DType::float32 : t; }

namespace {

DType signed_integer_of(int bits) {
  switch (bits) {
    case 8: return DType::int8;
    case 16: return DType::int16;
    case 32: return DType::int32;
    default: return DType::int64;
  }
}

}  // namespace

// c10's promoteTypes table for these dtypes, as rules: bool gives way to anything; two integers give the wider,
// where uint8 meets a signed type it needs one more byte than int8 (int16); an integer gives way to a floating
// dtype; float16 and bfloat16 meet in float32; otherwise the wider floating dtype.
DType promote_types(DType a, DType b) {
  if (a == b || b == DType::bool_) return a;
  if (a == DType::bool_) return b;
  const Category ca = category(a), cb = category(b);
  if (ca != cb) return ca == Category::floating ? a : b;
  if (ca == Category::integer) {
    if (is_unsigned(a) || is_unsigned(b)) {
      const DType other = is_unsigned(a) ? b : a;
      return signed_integer_of(std::max(16, integer_bits(other)));
    }
    return integer_bits(a) >= integer_bits(b) ? a : b;
  }
  if (item_size(a) == 2 && item_size(b) == 2) return DType::float32;  // float16 with bfloat16
  return item_size(a) >= item_size(b) ? a : b;
}

namespace {

// at::native::combine_categories for the real dtypes here: `higher` is the stronger bucket's dtype (the tensors
// with dims), `lower` the 0-d tensors'. A 0-d tensor only matters when its category is higher.
std::optional<DType> combine_categories(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (category(*higher) == Category::floating) return higher;
  if (*higher == DType::bool_ || category(*lower) == Category::floating) return promote_types(*higher, *lower);
  return higher;
}

}  // namespace

// ResultTypeState's three buckets: tensors with dims, 0-d tensors, wrapped numbers (whose floating dtype counts as
// the default float dtype, float32), combined from the weakest up.
DType result_type(const std::vector<Operand>& operands) {
  std::optional<DType> dims, zero, wrapped;
  for (const Operand& o : operands) {
    const DType t = o.wrapped && category(o.dtype) == Category::floating ? DType::float32 : o.dtype;
    std::optional<DType>& bucket = o.wrapped ? wrapped : o.zero_dim ? zero : dims;
    bucket = bucket ? promote_types(*bucket, t) : t;
  }
  return combine_categories(dims, combine_categories(zero, wrapped)).value_or(DType::float32);
}

bool can_cast(DType from, DType to) {
  if (category(from) == Category::floating && category(to) != Category::floating) return false;
  if (from != DType::bool_ && to == DType::bool_) return false;
  return true;
}

Error cast_error(DType result, DType self) { return make_error(ErrorText::cast, {torch_name(result), torch_name(self)}); }

}  // namespace bc
