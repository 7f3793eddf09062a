// The xtensor value oracle's reductions (sum, mean, amax, amin, prod) with xtensor's own functions: the case's dims
// as signed axes, which xtensor wraps itself (normalize_axis) and refuses when unsorted, repeated or out of bounds
// (xreducer.hpp, std::runtime_error); no dims: xtensor's overload without axes (every axis); keepdim: xt::keep_dims;
// dtype=: the operand converted to that type first (xt::cast), as LibTorch converts before it reduces.
#include <cstddef>
#include <tuple>
#include <type_traits>

#include <xtensor/xmath.hpp>
#include <xtensor/xreducer.hpp>

#include "engine/reduction.h"
#include "oracles/xtensor_operands.h"

namespace bc::xtv {
namespace {

// The reduction of an evaluated array with reducer options O (no keepdim, or xt::keep_dims).
template <class T, class O>
Outcome reduce_with(ReduceKind kind, const Case& c, const xt::xarray<T>& a, O options) {
  if (!c.dims) {
    switch (kind) {
      case ReduceKind::sum: return evaluate(xt::sum(a, options));
      case ReduceKind::mean: return evaluate(xt::mean(a, options));
      case ReduceKind::amax: return evaluate(xt::amax(a, options));
      case ReduceKind::amin: return evaluate(xt::amin(a, options));
      case ReduceKind::prod: return evaluate(xt::prod(a, options));
    }
  }
  const std::vector<std::ptrdiff_t> axes(c.dims->begin(), c.dims->end());
  switch (kind) {
    case ReduceKind::sum: return evaluate(xt::sum(a, axes, options));
    case ReduceKind::mean: return evaluate(xt::mean(a, axes, options));
    case ReduceKind::amax: return evaluate(xt::amax(a, axes, options));
    case ReduceKind::amin: return evaluate(xt::amin(a, axes, options));
    case ReduceKind::prod: return evaluate(xt::prod(a, axes, options));
  }
  return Outcome::unsupported_because("no xtensor reduction");
}

template <class T>
Outcome reduce_array(ReduceKind kind, const Case& c, const xt::xarray<T>& a) {
  if (c.keepdim) return reduce_with(kind, c, a, xt::keep_dims);
  return reduce_with(kind, c, a, std::tuple<xt::evaluation_strategy::lazy_type>{});
}

// The operand evaluated into an xarray of its own value type, or of dtype='s type (converted first, as LibTorch
// does): one instantiation per value type, not per layout and accumulator (which took minutes to compile).
template <class X>
Outcome reduce_of(ReduceKind kind, const Case& c, const X& a) {
  using T = typename X::value_type;
  if (!c.dtype_arg) return reduce_array(kind, c, xt::xarray<T>(a));
  switch (*c.dtype_arg) {
    case DType::bool_: return reduce_array(kind, c, xt::xarray<bool>(xt::cast<bool>(a)));
    case DType::int64: return reduce_array(kind, c, xt::xarray<int64_t>(xt::cast<int64_t>(a)));
    case DType::float32: return reduce_array(kind, c, xt::xarray<float>(xt::cast<float>(a)));
    case DType::float64: return reduce_array(kind, c, xt::xarray<double>(xt::cast<double>(a)));
    case DType::int8: return reduce_array(kind, c, xt::xarray<int8_t>(xt::cast<int8_t>(a)));
    case DType::uint8: return reduce_array(kind, c, xt::xarray<uint8_t>(xt::cast<uint8_t>(a)));
    case DType::int16: return reduce_array(kind, c, xt::xarray<int16_t>(xt::cast<int16_t>(a)));
    case DType::int32: return reduce_array(kind, c, xt::xarray<int32_t>(xt::cast<int32_t>(a)));
    case DType::float16: case DType::bfloat16: break;  // refused before (xtensor_oracle.cpp: unsupported_dtype)
  }
  return reduce_array(kind, c, xt::xarray<T>(a));
}

}  // namespace

Outcome reduction(const Case& c, Op op, const AnyInput& a) {
  const ReduceKind kind = reduction_rule(op)->kind;
  return std::visit([&](const auto& x) { return reduce_of(kind, c, x); }, a);
}

}  // namespace bc::xtv
