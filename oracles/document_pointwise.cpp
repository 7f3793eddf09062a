#include "oracles/document_pointwise.h"

#include <cmath>
#include <vector>

#include "harness/operands.h"
#include "oracles/document_shapes.h"

// The rows [D1] ... [D11] cited are those of docs/notes/document-voter.md, which names each rule's document.

namespace bc::documents {
namespace {

// The pointwise program: shape ([D1], [D2], [D3]), values in dtype T, gradients summed back to each operand's shape
// ([D5]: seed 000).
template <class T>
Outcome run_pointwise(const Case& c, Op op, const Formula& f, const Operands& o, const Shape& shape) {
  const bool inplace = is_inplace(op), comparison = is_comparison(op) && !inplace;
  const ValueAt<T> value_at = f.value(T{});
  const PartialsAt<T> partials_at = f.partials(T{});
  const Scalars s{scalar_of(c, "alpha").value, scalar_of(c, "value").value};
  const size_t n = o.shapes.size();
  std::vector<std::vector<size_t>> sources;
  for (const Shape& in : o.shapes) sources.push_back(broadcast_sources(shape, in));
  const auto operand = [&](size_t k, size_t i) { return k < n ? static_cast<T>(o.values[k][sources[k][i]]) : T(0); };

  const size_t count = static_cast<size_t>(numel(shape));
  std::vector<T> result(count);
  for (size_t i = 0; i < count; ++i) result[i] = value_at(operand(0, i), operand(1, i), operand(2, i), s);

  const bool reduces = f.reduces;
  double norm = 0;
  if (reduces) {
    for (T d : result) norm += static_cast<double>(d) * static_cast<double>(d);
    norm = static_cast<double>(static_cast<T>(std::sqrt(norm)));
  }
  const Shape out_shape = reduces ? Shape{} : shape;
  const std::string dtype = comparison ? "bool" : to_string(o.dtype);
  Outcome out = Outcome::success(out_shape, dtype);
  if (c.values) {
    if (reduces) {
      out.values = stored({norm});
    } else if (comparison) {
      std::vector<int64_t> bits;
      for (T r : result) bits.push_back(r != 0 ? 1 : 0);
      out.values = Values(std::move(bits));
    } else {
      out.values = stored(std::vector<double>(result.begin(), result.end()));
    }
  }
  if (!is_gradient_case(c)) return out;

  if (comparison) return silent("a gradient through a comparison (its result is bool)");
  if (entry(op).dtype_rule == DTypeRule::bool_condition && wants_grad(c, 0)) return silent("a gradient for where's bool condition");
  if (reduces && norm == 0) return silent("the gradient of a 2-norm at zero");
  const Values upstream = upstream_values(c, o.dtype, numel(out_shape));
  std::vector<std::vector<double>> grads;
  for (const Shape& in : o.shapes) grads.emplace_back(static_cast<size_t>(numel(in)), 0.0);
  for (size_t i = 0; i < count; ++i) {
    const std::array<std::optional<T>, 3> d = partials_at(operand(0, i), operand(1, i), operand(2, i), s);
    T g = static_cast<T>(upstream.as_double(reduces ? 0 : i));
    if (reduces) g = g * result[i] / static_cast<T>(norm);
    for (size_t k = 0; k < n; ++k) {
      if (!wants_grad(c, k)) continue;
      if (!d[k]) return silent(std::string("the derivative of ") + to_string(c.op) + " here (a pole, a tie, a jump or NaN)");
      grads[k][sources[k][i]] += static_cast<double>(g * *d[k]);
    }
  }
  for (size_t k = 0; k < n; ++k) {
    if (!wants_grad(c, k)) {
      out.grads.push_back(std::nullopt);
      continue;
    }
    std::vector<double> rounded;
    for (double g : grads[k]) rounded.push_back(static_cast<double>(static_cast<T>(g)));
    out.grads.push_back(Grad{o.shapes[k], to_string(o.dtype), stored(rounded)});
  }
  return out;
}

}  // namespace

Outcome pointwise(const Case& c, Op op, const Formula& f) {
  const bool where = entry(op).dtype_rule == DTypeRule::bool_condition;
  if (where && dtype_of(c, 0) != DType::bool_) return silent("where with a condition that is not bool");
  const std::optional<DType> dtype = shared_floating_dtype(c, where ? 1 : 0);
  if (!dtype) return silent("type promotion, nor arithmetic on integers or bool (one float32 or float64 only)");
  if (c.modify) return silent("autograd's rules for an input written in place before backward");
  if (is_inplace(op) && is_gradient_case(c)) return silent("autograd's rules for an op written in place");
  const Operands o = operands_of(c, *dtype);
  // Before the shape rules: no document says whether the memory rules come first.
  if (is_inplace(op) && inplace_memory_undocumented(o)) return silent(kMemoryRules);
  const Result<Shape> shape = broadcast_tensors(o.shapes);
  if (!shape.ok()) return refused(shape.error().kind, shape.error().message);
  if (is_inplace(op) && shape.value() != o.shapes[0]) return refused(ErrorKind::inplace_shape, "[D3] self keeps its shape");
  if (f.undocumented)
    if (const std::optional<std::string> what = f.undocumented(o, shape.value())) return silent(*what);
  return *dtype == DType::float32 ? run_pointwise<float>(c, op, f, o, shape.value())
                                  : run_pointwise<double>(c, op, f, o, shape.value());
}

}  // namespace bc::documents
