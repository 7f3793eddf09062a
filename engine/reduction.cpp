#include "engine/reduction.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "engine/autograd_formula.h"
#include "engine/error_texts.h"
#include "engine/wrapping.h"

namespace bc {
namespace {

//                            kind               dtype= one dim  node without dims  node with dims
const ReductionRule kSum{ReduceKind::sum, true, false, "SumBackward0", "SumBackward1"};
const ReductionRule kMean{ReduceKind::mean, true, false, "MeanBackward0", "MeanBackward1"};
const ReductionRule kAmax{ReduceKind::amax, false, false, "AmaxBackward0", "AmaxBackward0"};
const ReductionRule kAmin{ReduceKind::amin, false, false, "AminBackward0", "AminBackward0"};
const ReductionRule kProd{ReduceKind::prod, true, true, "ProdBackward0", "ProdBackward1"};

// Where each input element goes: its slice (the result's flat index, the same with and without keepdim).
struct Plan {
  Shape out;
  std::vector<int64_t> slice;  // per input element, row-major
  int64_t slices = 0;          // the result's numel
  int64_t count = 1;           // elements per slice
  bool all = false;            // every dim reduced (no dims, or dim=[])
};

// LibTorch's order: amax/amin of an empty tensor first check each dim as written, in the list's order (out of
// range, then size 0; no dims at all: their own text); then every dim wrapped (out of range), then repeats.
Result<Plan> plan(const ReductionRule& r, const Shape& in, const ReduceArgs& a) {
  const int64_t rank = static_cast<int64_t>(in.size()), wrap = std::max<int64_t>(rank, 1);
  const auto wrapped_dim = [wrap](int64_t d) { return d < 0 ? d + wrap : d; };
  const auto out_of_range = [wrap](int64_t d) { return d < -wrap || d >= wrap; };
  Plan p;
  p.all = !a.dims || a.dims->empty();
  const std::vector<int64_t> dims = a.dims.value_or(std::vector<int64_t>{});
  const bool extremum = r.kind == ReduceKind::amax || r.kind == ReduceKind::amin;
  if (extremum && numel(in) == 0) {
    const bool max = r.kind == ReduceKind::amax;
    if (p.all) return make_error(max ? ErrorText::amax_zero_numel : ErrorText::amin_zero_numel);
    for (int64_t d : dims) {
      if (out_of_range(d)) return make_error(ErrorText::dim_out_of_range, {-wrap, wrap - 1, d});
      if (in[static_cast<size_t>(wrapped_dim(d))] == 0)
        return make_error(max ? ErrorText::amax_zero_size : ErrorText::amin_zero_size, {d});
    }
  }
  std::vector<bool> reduced(in.size(), p.all);
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) {
    if (out_of_range(d)) return make_error(ErrorText::dim_out_of_range, {-wrap, wrap - 1, d});
    wrapped.push_back(wrapped_dim(d));
  }
  for (size_t j = 0; j < wrapped.size(); ++j) {
    for (size_t i = 0; i < j; ++i)
      if (wrapped[i] == wrapped[j]) return make_error(ErrorText::dim_repeated, {wrapped[j]});
    if (rank > 0) reduced[static_cast<size_t>(wrapped[j])] = true;
  }
  Shape kept = in;
  for (size_t d = 0; d < in.size(); ++d) {
    if (reduced[d]) {
      p.count *= in[d];
      kept[d] = 1;
    }
    if (!reduced[d] || a.keepdim) p.out.push_back(kept[d]);
  }
  p.slices = numel(kept);
  // Row-major walk over the input, carrying the slice index in the kept shape's strides.
  const Shape strides = contiguous_strides(kept);
  std::vector<int64_t> index(in.size(), 0);
  const int64_t n = numel(in);
  p.slice.reserve(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    int64_t s = 0;
    for (size_t d = 0; d < in.size(); ++d)
      if (!reduced[d]) s += index[d] * strides[d];
    p.slice.push_back(s);
    for (size_t d = in.size(); d-- > 0;) {
      if (++index[d] < in[d]) break;
      index[d] = 0;
    }
  }
  return p;
}

// Compute types: float for float32, double for float64, int64_t for int64 and bool (stored back as "not zero").
template <class T>
T as(const Value& v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v.as_double());
  else return v.is_float ? static_cast<T>(v.f) : v.i;
}
template <class T>
Value value_of(T x) {
  if constexpr (std::is_floating_point_v<T>) return Value::of_float(static_cast<double>(x));
  else return Value::of_int(x);
}
template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  else return false;
}

// ---- The forwards: one pass over the input (already in the result's dtype), slice by slice. ----
template <class T>
std::vector<Value> forward_values(ReduceKind kind, const std::vector<Value>& xs, const Plan& p) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;  // sum's accumulator
  const auto slices = static_cast<size_t>(p.slices);
  std::vector<Acc> sums(slices, 0);
  std::vector<T> acc(slices, T(kind == ReduceKind::prod ? 1 : 0));
  std::vector<bool> seen(slices, false);
  for (size_t k = 0; k < xs.size(); ++k) {
    const auto s = static_cast<size_t>(p.slice[k]);
    const T x = as<T>(xs[k]);
    switch (kind) {
      case ReduceKind::sum: case ReduceKind::mean:
        if constexpr (std::is_floating_point_v<T>) sums[s] += static_cast<double>(x);
        else sums[s] = wrap_add(sums[s], x);
        break;
      case ReduceKind::prod:
        if constexpr (std::is_floating_point_v<T>) acc[s] = acc[s] * x;
        else acc[s] = wrap_mul(acc[s], x);
        break;
      case ReduceKind::amax: case ReduceKind::amin: {  // NaN wins; on a tie the first stays (its sign of zero)
        const bool better = kind == ReduceKind::amax ? x > acc[s] : x < acc[s];
        if (!seen[s] || (!is_nan(acc[s]) && (is_nan(x) || better))) acc[s] = x;
        seen[s] = true;
        break;
      }
    }
  }
  std::vector<Value> out;
  for (size_t s = 0; s < slices; ++s) {
    if (kind == ReduceKind::sum) out.push_back(value_of(static_cast<T>(sums[s])));
    else if (kind == ReduceKind::mean) out.push_back(value_of(static_cast<T>(sums[s]) / static_cast<T>(p.count)));
    else out.push_back(value_of(acc[s]));
  }
  return out;
}

// ---- The backwards (derivatives.yaml), in the gradient's dtype T (floating). ----

// sum: the gradient stretched over the reduced dims; mean: then divided by the count.
template <class T>
std::vector<double> sum_mean_backward(bool mean, const std::vector<double>& g, const Plan& p) {
  std::vector<double> out;
  for (int64_t s : p.slice) {
    const T x = static_cast<T>(g[static_cast<size_t>(s)]);
    out.push_back(static_cast<double>(mean ? x / static_cast<T>(p.count) : x));
  }
  return out;
}

// amax/amin: scale_grad_by_count(grad, result == self): grad / (ties in the slice), times the mask (so a slice
// whose result is NaN, with no element equal to it, gets inf * 0 = NaN).
template <class T>
std::vector<double> extremum_backward(const std::vector<double>& g, const std::vector<double>& x,
                                      const std::vector<double>& r, const Plan& p) {
  std::vector<int64_t> ties(static_cast<size_t>(p.slices), 0);
  std::vector<bool> mask;
  for (size_t k = 0; k < x.size(); ++k) {
    mask.push_back(static_cast<T>(x[k]) == static_cast<T>(r[static_cast<size_t>(p.slice[k])]));
    ties[static_cast<size_t>(p.slice[k])] += mask.back() ? 1 : 0;
  }
  std::vector<double> out;
  for (size_t k = 0; k < x.size(); ++k) {
    const auto s = static_cast<size_t>(p.slice[k]);
    const T scaled = static_cast<T>(g[s]) / static_cast<T>(ties[s]);
    out.push_back(static_cast<double>(scaled * static_cast<T>(mask[k] ? 1 : 0)));
  }
  return out;
}

// prod: grad * (result / self) when no element is zero; else, per slice, grad times the product of the others
// (prod_safe_zeros_backward: the exclusive products from the left and from the right, multiplied). Without a dim
// (or over several dims: the engine's generalisation) a slice with two zeros or more gets zeros; with one dim the
// zeros are counted over the whole input, as LibTorch's prod_backward(dim) does.
template <class T>
std::vector<double> prod_backward(bool one_dim, const std::vector<double>& g, const std::vector<double>& x,
                                  const std::vector<double>& r, const Plan& p) {
  const auto slices = static_cast<size_t>(p.slices);
  std::vector<std::vector<size_t>> members(slices);
  std::vector<int64_t> zeros(slices, 0);
  int64_t total_zeros = 0;
  for (size_t k = 0; k < x.size(); ++k) {
    members[static_cast<size_t>(p.slice[k])].push_back(k);
    if (x[k] == 0) {
      ++zeros[static_cast<size_t>(p.slice[k])];
      ++total_zeros;
    }
  }
  std::vector<double> out(x.size(), 0.0);
  for (size_t s = 0; s < slices; ++s) {
    const T gs = static_cast<T>(g[s]);
    const bool plain = one_dim ? total_zeros == 0 : zeros[s] == 0;
    if (!plain && !one_dim && zeros[s] > 1) continue;  // zeros_like
    const std::vector<size_t>& m = members[s];
    std::vector<T> left(m.size(), T(1)), right(m.size(), T(1));
    for (size_t i = 1; i < m.size(); ++i) left[i] = left[i - 1] * static_cast<T>(x[m[i - 1]]);
    for (size_t i = m.size(); i-- > 1;) right[i - 1] = right[i] * static_cast<T>(x[m[i]]);
    for (size_t i = 0; i < m.size(); ++i) {
      const T xi = static_cast<T>(x[m[i]]);
      out[m[i]] = static_cast<double>(plain ? gs * (static_cast<T>(r[s]) / xi) : gs * (left[i] * right[i]));
    }
  }
  return out;
}

template <class T>
std::vector<double> backward_values(const ReductionRule& rule, const std::vector<double>& g,
                                    const std::vector<double>& x, const std::vector<double>& r, const Plan& p,
                                    bool one_dim) {
  switch (rule.kind) {
    case ReduceKind::sum: return sum_mean_backward<T>(false, g, p);
    case ReduceKind::mean: return sum_mean_backward<T>(true, g, p);
    case ReduceKind::amax: case ReduceKind::amin: return extremum_backward<T>(g, x, r, p);
    case ReduceKind::prod: return prod_backward<T>(one_dim, g, x, r, p);
  }
  return {};
}

}  // namespace

const ReductionRule& reduction_rule_of(Op op) {
  if (op == Op::sum) return kSum;
  if (op == Op::mean) return kMean;
  if (op == Op::amax) return kAmax;
  if (op == Op::amin) return kAmin;
  if (op == Op::prod) return kProd;
  throw std::logic_error(std::string("no reduction rule for op ") + std::to_string(static_cast<int>(op)));
}

DType reduction_dtype(const ReductionRule& r, DType input, const std::optional<DType>& dtype_arg) {
  if (dtype_arg) return *dtype_arg;
  const bool widens = r.kind == ReduceKind::sum || r.kind == ReduceKind::prod;
  return widens && category(input) != Category::floating ? DType::int64 : input;
}

}  // namespace bc

namespace bc::ag {

Result<Var> reduce(Op op, const Var& t, const ReduceArgs& args) {
  const ReductionRule& rule = *reduction_rule(op);
  const DType in_dtype = t->data.dtype();
  if (rule.kind == ReduceKind::mean) {
    if (args.dtype && category(*args.dtype) != Category::floating)
      return make_error(ErrorText::mean_dtype_arg, {torch_name(*args.dtype)});
    if (!args.dtype && category(in_dtype) != Category::floating)
      return make_error(ErrorText::mean_input_dtype, {torch_name(in_dtype)});
  }
  Result<Plan> planned = plan(rule, t->data.sizes(), args);
  if (!planned.ok()) return planned.error();
  const Plan& p = planned.value();
  const DType out_dtype = reduction_dtype(rule, in_dtype, args.dtype);
  // LibTorch 1.13's CPU prod has no kernel for the 16-bit floats; an input without elements never reaches it.
  if (rule.kind == ReduceKind::prod && (out_dtype == DType::float16 || out_dtype == DType::bfloat16) &&
      numel(t->data.sizes()) > 0)
    return make_error(ErrorText::not_implemented, {"prod_cpu", torch_name(out_dtype)});
  const std::vector<Value> xs = cast(t->data, out_dtype).values();  // cast first, then reduced
  std::vector<Value> values;
  switch (out_dtype) {
    // float16 and bfloat16 accumulate in float and round at the store, as LibTorch's CPU kernels do; the narrow
    // integers accumulate in int64 and wrap at the store.
    case DType::float32: case DType::float16: case DType::bfloat16:
      values = forward_values<float>(rule.kind, xs, p);
      break;
    case DType::float64: values = forward_values<double>(rule.kind, xs, p); break;
    case DType::int64: case DType::bool_: case DType::int8: case DType::uint8: case DType::int16: case DType::int32:
      values = forward_values<int64_t>(rule.kind, xs, p);
      break;
  }
  Var out = output(Tensor::of_values(p.out, out_dtype, values));
  std::shared_ptr<Node> node = record(args.dims ? rule.node_dims : rule.node_all, {t});
  if (!node) return out;
  // amax, amin and prod save self and the result (derivatives.yaml), so that an in-place write is caught.
  const bool saves = rule.kind != ReduceKind::sum && rule.kind != ReduceKind::mean;
  const Saved self = saves ? save(t) : Saved{}, result = saves ? save_output(out->data, node->name) : Saved{};
  const bool one_dim = args.dims && args.dims->size() == 1 && t->data.dim() > 0;
  const bool zero_dim_prod = rule.kind == ReduceKind::prod && t->data.dim() == 0;
  const Shape in_shape = t->data.sizes();
  attach(node, [rule, p, self, result, saves, one_dim, zero_dim_prod, in_shape](const Tensor& grad) {
    if (zero_dim_prod) return Grads{grad};  // prod_backward: a 0-d input's gradient is grad itself
    const std::vector<double> g = grad.to_doubles();
    // prod computes its formula on self cast to the gradient's dtype (dtype= may have widened the result).
    const std::vector<double> x = saves ? cast(must(self.unpack()), grad.dtype()).to_doubles() : std::vector<double>{};
    const std::vector<double> r = saves ? must(result.unpack()).to_doubles() : std::vector<double>{};
    const std::vector<double> in = grad.dtype() == DType::float32 ? backward_values<float>(rule, g, x, r, p, one_dim)
                                                                  : backward_values<double>(rule, g, x, r, p, one_dim);
    return Grads{Tensor::from_values(in_shape, grad.dtype(), in)};
  });
  set_history(out, node);
  return out;
}

}  // namespace bc::ag
