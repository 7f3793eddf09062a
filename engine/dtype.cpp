#include "engine/dtype.h"

#include <algorithm>

#include "engine/error_texts.h"

namespace bc {

const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> all = {DType::bool_, DType::int64, DType::float32, DType::float64};
  return all;
}

const char* to_string(DType t) {
  switch (t) {
    case DType::bool_: return "bool";
    case DType::int64: return "int64";
    case DType::float32: return "float32";
    case DType::float64: return "float64";
  }
  return "float32";
}

const char* torch_name(DType t) {
  switch (t) {
    case DType::bool_: return "Bool";
    case DType::int64: return "Long";
    case DType::float32: return "Float";
    case DType::float64: return "Double";
  }
  return "Float";
}

const char* cxx_type_name(DType t) {
  switch (t) {
    case DType::bool_: return "bool";
    case DType::int64: return "long int";
    case DType::float32: return "float";
    case DType::float64: return "double";
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
    case DType::int64: return Category::integer;
    default: return Category::floating;
  }
}

size_t item_size(DType t) {
  switch (t) {
    case DType::bool_: return 1;
    case DType::float32: return 4;
    default: return 8;
  }
}

// Among these four the promotion lattice is a chain: bool < int64 < float32 < float64.
DType promote_types(DType a, DType b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

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

DType result_type(const std::vector<Operand>& operands) {
  std::optional<DType> dims, zero;
  for (const Operand& o : operands) {
    std::optional<DType>& bucket = o.zero_dim ? zero : dims;
    bucket = bucket ? promote_types(*bucket, o.dtype) : o.dtype;
  }
  return combine_categories(dims, zero).value_or(DType::float32);
}

bool can_cast(DType from, DType to) {
  if (category(from) == Category::floating && category(to) != Category::floating) return false;
  if (from != DType::bool_ && to == DType::bool_) return false;
  return true;
}

Error cast_error(DType result, DType self) { return make_error(ErrorText::cast, {torch_name(result), torch_name(self)}); }

}  // namespace bc
