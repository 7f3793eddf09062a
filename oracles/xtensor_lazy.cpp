// The xtensor-lazy variant: the op kept as xtensor's unevaluated expression (an xfunction over the case's views),
// asked what a user asks first (dimension(), then size(), then shape()) and read through its own iterators, never
// assigned to a container. Operands that do not broadcast are found only when the shape is computed, inside size(),
// which is noexcept (xaccessible.hpp): the broadcast_error ends in std::terminate, a crash of the isolated worker. In-place ops are assignments, which evaluate: unsupported on this path.
#include "oracles/xtensor_variant.h"
#include "oracles/xtensor_variants.h"

namespace bc {
namespace xtv {
namespace {

template <class E>
Outcome read_lazily(const E& e) {
  const std::size_t rank = e.dimension();  // never fails: the largest operand rank
  const std::size_t size = e.size();       // computes the broadcast shape: a conflict terminates here
  Outcome o = result(e);                   // shape() and the elements, through e's own steppers
  if (o.shape.size() != rank || static_cast<std::size_t>(numel(o.shape)) != size)
    return Outcome::failure(ErrorKind::other, "xtensor-lazy: dimension() " + std::to_string(rank) + " and size() " +
                                                  std::to_string(size) + " disagree with shape() " +
                                                  format_shape(o.shape));
  return o;
}

std::optional<std::string> lazy_refusal(const Case&, VariantRequest r) {
  if (r.inplace)
    return std::string("an in-place op is an assignment, which evaluates the expression; the lazy path reads "
                       "unevaluated expressions only");
  return std::nullopt;
}

Outcome lazy_path(const Case& c, VariantRequest r) {
  const std::vector<OperandPlan> plans = plan_operands(c);
  Operands ops;
  build_operands(plans, ops);
  auto read = [](const auto& e) { return read_lazily(e); };
  if (r.op == VariantOp::where) return with_where(ops.inputs[0], ops.inputs[1], ops.inputs[2], read);
  return same_type(ops.inputs[0], ops.inputs[1],
                   [&](const auto& a, const auto& b) { return with_binary(c, r.op, a, b, read); });
}

}  // namespace
}  // namespace xtv

std::optional<Outcome> xtensor_lazy_refusal(const Case& c) { return xtv::variant_refusal("xtensor-lazy", c, xtv::lazy_refusal); }
std::unique_ptr<Oracle> make_xtensor_lazy_oracle() {
  return xtv::make_variant_oracle("xtensor-lazy", xtv::lazy_refusal, xtv::lazy_path);
}

}  // namespace bc
