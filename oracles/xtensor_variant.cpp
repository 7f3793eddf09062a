#include "oracles/xtensor_variant.h"

#include <xtensor/xexception.hpp>

#include "oracles/xtensor_oracle.h"

namespace bc::xtv {

std::optional<VariantRequest> variant_request(Op op) {
  switch (op) {
    case Op::add: return VariantRequest{VariantOp::add, false};
    case Op::sub: return VariantRequest{VariantOp::sub, false};
    case Op::mul: return VariantRequest{VariantOp::mul, false};
    case Op::div: return VariantRequest{VariantOp::div, false};
    case Op::add_: return VariantRequest{VariantOp::add, true};
    case Op::sub_: return VariantRequest{VariantOp::sub, true};
    case Op::mul_: return VariantRequest{VariantOp::mul, true};
    case Op::div_: return VariantRequest{VariantOp::div, true};
    case Op::where: return VariantRequest{VariantOp::where, false};
    case Op::pow: case Op::atan2: case Op::fmod: case Op::remainder: case Op::maximum: case Op::minimum: case Op::eq:
    case Op::ne: case Op::lt: case Op::le: case Op::gt: case Op::ge: case Op::hypot: case Op::pow_: case Op::atan2_:
    case Op::fmod_: case Op::remainder_: case Op::eq_: case Op::ne_: case Op::lt_: case Op::le_: case Op::gt_:
    case Op::ge_: case Op::hypot_: case Op::neg: case Op::abs: case Op::sqrt: case Op::exp: case Op::log:
    case Op::sign: case Op::reciprocal: case Op::lerp: case Op::lerp_: case Op::addcmul: case Op::addcdiv:
    case Op::addcmul_: case Op::addcdiv_: case Op::unfused_addcmul: case Op::unfused_addcdiv:
    case Op::unfused_addcmul_: case Op::unfused_addcdiv_: case Op::broadcast_shapes: case Op::expand: case Op::sum_to:
    case Op::matmul: case Op::mm: case Op::bmm: case Op::mv: case Op::dot: case Op::outer: case Op::addmm:
    case Op::addmv: case Op::addr: case Op::baddbmm: case Op::addbmm: case Op::addmm_: case Op::addmv_:
    case Op::addr_: case Op::baddbmm_: case Op::addbmm_: case Op::diamond: case Op::dist: case Op::graph:
    case Op::floor_divide: case Op::floor_divide_: case Op::sum: case Op::mean: case Op::amax: case Op::amin:
    case Op::prod: case Op::fill_: case Op::zero_:
      break;
  }
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
