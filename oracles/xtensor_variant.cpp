#include "oracles/xtensor_variant.h"

#include <xtensor/xexception.hpp>

#include "oracles/xtensor_oracle.h"

namespace bc::xtv {

std::optional<VariantRequest> variant_request(Op op) {
  // The ops the variants run; every other op is refused by variant_refusal.
  static const std::pair<Op, VariantRequest> requests[] = {
      {Op::add, {VariantOp::add, false}},  {Op::sub, {VariantOp::sub, false}},  {Op::mul, {VariantOp::mul, false}},
      {Op::div, {VariantOp::div, false}},  {Op::add_, {VariantOp::add, true}},  {Op::sub_, {VariantOp::sub, true}},
      {Op::mul_, {VariantOp::mul, true}},  {Op::div_, {VariantOp::div, true}},  {Op::where, {VariantOp::where, false}}};
  for (const auto& [o, request] : requests)
    if (o == op) return request;
  return std::nullopt;
}

std::optional<std::string> mixed_dtypes(const Case& c, VariantRequest r) {
  const size_t first = r.op == VariantOp::where ? 1 : 0;
  for (size_t k = first + 1; k < c.shapes.size(); ++k)
    if (dtype_of(c, k) != dtype_of(c, first))
      return std::string("the xtensor variants are instantiated for operands of one dtype (where's condition "
                         "aside); this case mixes them");
  return std::nullopt;
}

std::optional<std::string> not_owned(const std::vector<OperandPlan>& plans, VariantRequest r) {
  if (!r.inplace) return std::nullopt;
  if (plans[0].layout != Layout::contiguous)
    return std::string("owns its data: it cannot be a view of self's memory (self is ") + to_string(plans[0].layout) +
           ")";
  for (const OperandPlan& p : plans)
    if (p.views_operand >= 0) return std::string("owns its data: no operand can share it");
  return std::nullopt;
}

std::optional<Outcome> variant_refusal(const std::string& name, const Case& c, PathRefusal why) {
  const std::optional<VariantRequest> r = variant_request(c.op);
  if (!r) return Outcome::unsupported_because(name + " runs add, sub, mul, div (and in place) and where only");
  if (!c.values) return Outcome::unsupported_because(name + " runs value-level cases only");
  if (has_numbers(c)) return Outcome::unsupported_because(name + " takes tensor operands only (xtensor runs numbers)");
  if (is_gradient_case(c) || c.modify)
    return Outcome::unsupported_because("xtensor has no autograd: gradient cases are not its to judge");
  if (c.out) return Outcome::unsupported_because(name + " has no out= form (xtensor's main path assigns into out)");
  if (const auto narrow = unsupported_dtype(c)) return Outcome::unsupported_because(*narrow);
  if (const auto mixed = mixed_dtypes(c, *r)) return Outcome::unsupported_because(*mixed);
  if (!why) return std::nullopt;
  try {
    if (const auto refused = why(c, *r)) return Outcome::unsupported_because(*refused);
  } catch (const std::exception& e) {  // as the path's own exceptions (a case the harness cannot plan)
    return Outcome::failure(ErrorKind::other, e.what());
  }
  return std::nullopt;
}

namespace {

class VariantOracle : public Oracle {
 public:
  VariantOracle(std::string name, PathRefusal why, VariantPath path) : name_(std::move(name)), why_(why), path_(path) {}
  std::string name() const override { return name_; }
  std::string version() const override { return xtensor_version(); }

  Outcome run(const Case& c) override {
    if (std::optional<Outcome> refused = variant_refusal(name_, c, why_)) return std::move(*refused);
    try {
      return path_(c, *variant_request(c.op));
    } catch (const xt::broadcast_error& e) {
      return Outcome::failure(ErrorKind::broadcast, e.what());
    } catch (const std::exception& e) {
      return Outcome::failure(ErrorKind::other, e.what());
    }
  }

 private:
  std::string name_;
  PathRefusal why_;
  VariantPath path_;
};

}  // namespace

std::unique_ptr<Oracle> make_variant_oracle(std::string name, PathRefusal why, VariantPath path) {
  return std::make_unique<VariantOracle>(std::move(name), why, path);
}

}  // namespace bc::xtv
