// A tensor: shared storage, sizes, strides (in elements), a storage offset and a dtype. Views share the storage
// and copy nothing: expand (stride 0), permute/transpose, slices with a step, as_strided (overlapping ones
// included). Storage keeps a version counter, bumped by every in-place write (as PyTorch's is).
//
// Values are kept exactly: bool and the integers as int64_t, the floating dtypes as double (a store converts: a
// narrower integer wraps around, float32, float16 and bfloat16 round to nearest-even, so each element holds exactly
// what the narrow type would).
#pragma once

#include <memory>
#include <vector>

#include "engine/dtype.h"
#include "engine/error.h"
#include "engine/overlap.h"
#include "engine/scalar.h"
#include "engine/shape.h"

namespace bc {

struct Storage {
  DType dtype;
  std::vector<int64_t> ints;   // bool (0 or 1) and int64
  std::vector<double> floats;  // float32 (rounded to float) and float64
  int64_t version = 0;
  Storage(DType t, int64_t size);
  int64_t size() const;
};

// One element, as the op computing with it sees it: an integer (bool, int64) or a floating value.
struct Value {
  bool is_float = false;
  int64_t i = 0;
  double f = 0;
  static Value of_int(int64_t v) { return {false, v, 0}; }
  static Value of_float(double v) { return {true, 0, v}; }
  double as_double() const { return is_float ? f : static_cast<double>(i); }
};

class Tensor {
 public:
  Tensor() = default;
  // A new contiguous tensor; `values` in row-major order, converted to `dtype` (one value per element, or none
  // for zeros).
  static Tensor from_values(const Shape& sizes, DType dtype, const std::vector<double>& values = {});
  static Tensor zeros(const Shape& sizes, DType dtype) { return from_values(sizes, dtype); }
  // A new contiguous tensor holding computed values (row-major), each converted to `dtype` as a store does.
  static Tensor of_values(const Shape& sizes, DType dtype, const std::vector<Value>& values);

  DType dtype() const { return storage_->dtype; }
  const Shape& sizes() const { return sizes_; }
  const Shape& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return bc::numel(sizes_); }
  View view() const { return {offset_, sizes_, strides_}; }
  bool shares_storage_with(const Tensor& other) const { return storage_ == other.storage_; }
  int64_t version() const { return storage_->version; }
  bool is_contiguous() const;
  // A wrapped number: the 0-d tensor a Python number becomes (engine/scalar.h's Number), which promotes by its
  // category only (engine/dtype.h). Views of it are ordinary tensors.
  bool is_wrapped_number() const { return wrapped_number_; }
  void set_wrapped_number(bool wrapped) { wrapped_number_ = wrapped; }

  // Views (no copies).
  Result<Tensor> expand(const Shape& target) const;
  Result<Tensor> permute(const std::vector<int64_t>& order) const;
  Result<Tensor> transpose(int64_t d0, int64_t d1) const;
  Result<Tensor> slice(int64_t dim, int64_t start, int64_t end, int64_t step) const;
  Result<Tensor> as_strided(const Shape& sizes, const Shape& strides, int64_t offset) const;
  Tensor contiguous() const;  // a copy when not contiguous, else this
  // The same elements in row-major order at another shape of equal numel: a view when contiguous, else a view of
  // a contiguous copy (LibTorch's reshape).
  Result<Tensor> reshape(const Shape& sizes) const;

  // Elements in row-major index order, as doubles (exact for bool, for int64 up to 2^53, for floats).
  std::vector<double> to_doubles() const;
  std::vector<Value> values() const;
  Value read(int64_t storage_offset) const;
  void write(int64_t storage_offset, const Value& v);  // converts to the storage dtype
  void bump_version() { ++storage_->version; }
  // An in-place op's store: `values` (row-major, one per element) written through this view, then the version
  // bumped once.
  void assign(const std::vector<Value>& values);

 private:
  Tensor(std::shared_ptr<Storage> storage, Shape sizes, Shape strides, int64_t offset)
      : storage_(std::move(storage)), sizes_(std::move(sizes)), strides_(std::move(strides)), offset_(offset) {}
  std::shared_ptr<Storage> storage_;
  Shape sizes_, strides_;
  int64_t offset_ = 0;
  bool wrapped_number_ = false;
};

// The tensor as type promotion sees it (engine/dtype.h: result_type).
inline Operand operand_of(const Tensor& t) { return {t.dtype(), t.dim() == 0, t.is_wrapped_number()}; }

// The 0-d tensor PyTorch wraps a number in (scalar_to_tensor, then set_wrapped_number): its kind's dtype, its value.
Tensor wrapped_number(const Number& n);

// Converts a computed value to a dtype as a store does: float32 rounds to float, float16 and bfloat16 to their
// formats (engine/half_precision.h), int64 truncates towards zero (NaN, infinities and out-of-range values give
// INT64_MIN, as on x86), narrower integers keep their low bits (a float goes through int32 first), bool is "not zero".
Value convert(const Value& v, DType to);

}  // namespace bc
