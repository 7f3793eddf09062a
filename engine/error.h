// Errors as data: a small fixed set of kinds, shared by the engine, the oracles, the corpus and the reports,
// plus the implementation's own message. Across implementations kinds are compared; text only against LibTorch.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bc {

enum class ErrorKind {
  broadcast,         // shapes cannot be broadcast together
  inplace_shape,     // an in-place op would change self's shape
  expand,            // expand to an incompatible target
  sum_to,            // sum_to to a shape that does not expand to the source
  matmul_shape,      // matmul / mm / mv / dot operands of incompatible or unsupported shape
  invalid_argument,  // a malformed argument (a negative size, say)
  internal_overlap,  // (values issue) self has elements sharing memory
  partial_overlap,   // (values issue) self and an input partially overlap
  dtype_cast,        // (values issue) result type cannot be cast to self's dtype
  leaf_inplace,      // (autograd issue) in-place on a leaf that requires grad
  version_counter,   // (autograd issue) a tensor needed by backward was modified in place
  dtype_mismatch,    // an op that needs its operands in one dtype got several (mm, bmm, mv, dot, the fused products)
  other,             // anything unclassified; reports must show it
};

const char* to_string(ErrorKind kind);
std::optional<ErrorKind> error_kind_from_string(std::string_view name);
const std::vector<ErrorKind>& all_error_kinds();
// "broadcast, inplace_shape, ..." for messages that list the valid names.
std::string error_kind_names();

struct Error {
  ErrorKind kind = ErrorKind::other;
  std::string message;
  friend bool operator==(const Error& a, const Error& b) { return a.kind == b.kind && a.message == b.message; }
};

// A value or an Error. Kept minimal on purpose: the engine's shape functions return it.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit on purpose
  Result(Error error) : v_(std::move(error)) {}      // NOLINT
  bool ok() const { return v_.index() == 0; }
  const T& value() const { return std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace bc
