#include "engine/error.h"

namespace bc {

const std::vector<ErrorKind>& all_error_kinds() {
  static const std::vector<ErrorKind> kinds = {
      ErrorKind::broadcast,        ErrorKind::inplace_shape,   ErrorKind::expand,
      ErrorKind::sum_to,           ErrorKind::matmul_shape,    ErrorKind::invalid_argument,
      ErrorKind::internal_overlap, ErrorKind::partial_overlap, ErrorKind::dtype_cast,
      ErrorKind::leaf_inplace,     ErrorKind::version_counter, ErrorKind::dtype_mismatch,
      ErrorKind::other};
  return kinds;
}

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::broadcast: return "broadcast";
    case ErrorKind::inplace_shape: return "inplace_shape";
    case ErrorKind::expand: return "expand";
    case ErrorKind::sum_to: return "sum_to";
    case ErrorKind::matmul_shape: return "matmul_shape";
    case ErrorKind::invalid_argument: return "invalid_argument";
    case ErrorKind::internal_overlap: return "internal_overlap";
    case ErrorKind::partial_overlap: return "partial_overlap";
    case ErrorKind::dtype_cast: return "dtype_cast";
    case ErrorKind::leaf_inplace: return "leaf_inplace";
    case ErrorKind::version_counter: return "version_counter";
    case ErrorKind::dtype_mismatch: return "dtype_mismatch";
    case ErrorKind::other: return "other";
  }
  return "other";
}

std::optional<ErrorKind> error_kind_from_string(std::string_view name) {
  for (ErrorKind k : all_error_kinds())
    if (name == to_string(k)) return k;
  return std::nullopt;
}

std::string error_kind_names() {
  std::string out;
  for (ErrorKind k : all_error_kinds()) {
    if (!out.empty()) out += ", ";
    out += to_string(k);
  }
  return out;
}

}  // namespace bc
