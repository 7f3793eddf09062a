#include "engine/tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/error_texts.h"
#include "engine/expand.h"
#include "engine/half_precision.h"
#include "engine/wrapping.h"

namespace bc {

Storage::Storage(DType t, int64_t size) : dtype(t) {
  if (category(t) == Category::floating) floats.assign(static_cast<size_t>(size), 0.0);
  else ints.assign(static_cast<size_t>(size), 0);
}

int64_t Storage::size() const {
  return static_cast<int64_t>(category(dtype) == Category::floating ? floats.size() : ints.size());
}

// C++ leaves NaN, infinities and out-of-range values undefined here; x86 (and so LibTorch on it) gives INT64_MIN.
static int64_t float_to_int64(double f) {
  if (!(f > -9223372036854775808.0 && f < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(f);
}

// A float converts to a narrower integer through int32, as x86's cvttsd2si does for static_cast<int8_t>(float):
// NaN, infinities and values out of int32's range give INT32_MIN, whose low bits the narrow type keeps.
static int64_t float_to_int32(double f) {
  if (!(f > -2147483649.0 && f < 2147483648.0)) return INT32_MIN;
  return static_cast<int64_t>(f);
}

Value convert(const Value& v, DType to) {
  switch (to) {
    case DType::bool_: return Value::of_int(v.is_float ? (v.f != 0.0) : (v.i != 0));
    case DType::int64: return Value::of_int(v.is_float ? float_to_int64(v.f) : v.i);
    case DType::float32: return Value::of_float(static_cast<float>(v.as_double()));
    case DType::float64: return Value::of_float(v.as_double());
    case DType::int8:
    case DType::uint8:
    case DType::int16:
    case DType::int32:
      return Value::of_int(wrap_to(v.is_float ? float_to_int32(v.f) : v.i, integer_bits(to), is_unsigned(to)));
    case DType::float16: return Value::of_float(round_to_float16(v.as_double()));
    case DType::bfloat16: return Value::of_float(round_to_bfloat16(v.as_double()));
  }
  return v;
}

Tensor wrapped_number(const Number& n) {
  Tensor t = Tensor::of_values({}, n.dtype(), {n.kind == Number::Kind::floating ? Value::of_float(n.f) : Value::of_int(n.i)});
  t.set_wrapped_number(true);
  return t;
}

Tensor Tensor::from_values(const Shape& sizes, DType dtype, const std::vector<double>& values) {
  auto storage = std::make_shared<Storage>(dtype, bc::numel(sizes));
  Tensor t(storage, sizes, contiguous_strides(sizes), 0);
  for (size_t k = 0; k < values.size() && static_cast<int64_t>(k) < storage->size(); ++k)
    t.write(static_cast<int64_t>(k), Value::of_float(values[k]));
  return t;
}

Tensor Tensor::of_values(const Shape& sizes, DType dtype, const std::vector<Value>& values) {
  Tensor t = zeros(sizes, dtype);
  for (size_t k = 0; k < values.size(); ++k) t.write(static_cast<int64_t>(k), values[k]);
  return t;
}

void Tensor::assign(const std::vector<Value>& values) {
  const std::vector<int64_t> at = element_offsets(view());
  for (size_t k = 0; k < at.size(); ++k) write(at[k], values[k]);
  bump_version();
}

bool Tensor::is_contiguous() const {
  const Shape want = contiguous_strides(sizes_);
  for (size_t d = 0; d < sizes_.size(); ++d)
    if (sizes_[d] > 1 && strides_[d] != want[d]) return false;
  return true;
}

Result<Tensor> Tensor::expand(const Shape& target) const {
  Result<Geometry> g = expand_geometry(sizes_, strides_, target);
  if (!g.ok()) return g.error();
  return Tensor(storage_, g.value().sizes, g.value().strides, offset_);
}

Result<Tensor> Tensor::permute(const std::vector<int64_t>& order) const {
  if (order.size() != sizes_.size())
    return make_error(ErrorText::permute_count, {order.size(), sizes_.size()});
  Shape sizes, strides;
  std::vector<bool> seen(order.size(), false);
  for (int64_t d : order) {
    if (d < 0 || d >= dim() || seen[static_cast<size_t>(d)])
      return make_error(ErrorText::permute_repeat);
    seen[static_cast<size_t>(d)] = true;
    sizes.push_back(sizes_[static_cast<size_t>(d)]);
    strides.push_back(strides_[static_cast<size_t>(d)]);
  }
  return Tensor(storage_, sizes, strides, offset_);
}

Result<Tensor> Tensor::transpose(int64_t d0, int64_t d1) const {
  std::vector<int64_t> order(sizes_.size());
  for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int64_t>(d);
  if (d0 < 0 || d1 < 0 || d0 >= dim() || d1 >= dim())
    return make_error(ErrorText::transpose_dim);
  std::swap(order[static_cast<size_t>(d0)], order[static_cast<size_t>(d1)]);
  return permute(order);
}

Result<Tensor> Tensor::slice(int64_t d, int64_t start, int64_t end, int64_t step) const {
  if (d < 0 || d >= dim()) return make_error(ErrorText::slice_dim);
  if (step <= 0) return make_error(ErrorText::slice_step);
  const int64_t size = sizes_[static_cast<size_t>(d)];
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  Shape sizes = sizes_, strides = strides_;
  sizes[static_cast<size_t>(d)] = (end - start + step - 1) / step;
  strides[static_cast<size_t>(d)] *= step;
  return Tensor(storage_, sizes, strides, offset_ + start * strides_[static_cast<size_t>(d)]);
}

Result<Tensor> Tensor::as_strided(const Shape& sizes, const Shape& strides, int64_t offset) const {
  if (sizes.size() != strides.size())
    return make_error(ErrorText::strides_length);
  View v{offset, sizes, strides};
  for (int64_t s : strides)
    if (s < 0) return make_error(ErrorText::negative_strides);
  if (bc::numel(sizes) > 0) {
    int64_t last = offset;
    for (size_t k = 0; k < sizes.size(); ++k) last += (sizes[k] - 1) * strides[k];
    if (offset < 0 || last >= storage_->size())
      return make_error(ErrorText::view_outside_storage);
  }
  return Tensor(storage_, v.sizes, v.strides, v.offset);
}

Tensor Tensor::contiguous() const {
  if (is_contiguous()) return *this;
  Tensor out = zeros(sizes_, dtype());
  const std::vector<int64_t> from = element_offsets(view());
  for (size_t k = 0; k < from.size(); ++k) out.write(static_cast<int64_t>(k), read(from[k]));
  return out;
}

Result<Tensor> Tensor::reshape(const Shape& sizes) const {
  if (bc::numel(sizes) != numel())
    return make_error(ErrorText::reshape_numel, {sizes, numel()});
  const Tensor dense = contiguous();
  return Tensor(dense.storage_, sizes, contiguous_strides(sizes), dense.offset_);
}

Value Tensor::read(int64_t at) const {
  const auto i = static_cast<size_t>(at);
  return category(dtype()) == Category::floating ? Value::of_float(storage_->floats[i]) : Value::of_int(storage_->ints[i]);
}

void Tensor::write(int64_t at, const Value& v) {
  const Value c = convert(v, dtype());
  const auto i = static_cast<size_t>(at);
  if (c.is_float) storage_->floats[i] = c.f;
  else storage_->ints[i] = c.i;
}

std::vector<Value> Tensor::values() const {
  std::vector<Value> out;
  for (int64_t at : element_offsets(view())) out.push_back(read(at));
  return out;
}

std::vector<double> Tensor::to_doubles() const {
  std::vector<double> out;
  for (const Value& v : values()) out.push_back(v.as_double());
  return out;
}

}  // namespace bc
