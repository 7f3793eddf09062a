#include "oracles/engine_oracle.h"

#include "engine/broadcast.h"
#include "engine/expand.h"
#include "engine/inplace.h"
#include "engine/matmul_shape.h"
#include "engine/sum_to.h"

namespace bc {
namespace {

Outcome from_result(const Result<Shape>& r) {
  if (r.ok()) return Outcome::success(r.value());
  return Outcome::failure(r.error().kind, r.error().message);
}

class EngineOracle : public Oracle {
 public:
  std::string name() const override { return "engine"; }
  std::string version() const override { return "broadcheck engine"; }
  Outcome run(const Case& c) override {
    const OpInfo* op = find_op(c.op);
    if (!op) return Outcome::unsupported_because("unknown op " + c.op);
    const std::string& family = op->family;
    if (family == "elementwise" || family == "broadcast_shapes") return from_result(broadcast_shapes(c.shapes));
    if (family == "inplace")
      return from_result(inplace_shape(c.shapes[0], std::vector<Shape>(c.shapes.begin() + 1, c.shapes.end())));
    if (family == "expand") return from_result(expand_shape(c.shapes[0], c.shapes[1]));
    if (family == "sum_to") {
      Result<SumToPlan> plan = plan_sum_to(c.shapes[0], c.shapes[1]);
      if (!plan.ok()) return from_result(plan.error());
      return Outcome::success(apply_plan_shape(plan.value()));
    }
    if (family == "matmul") return from_result(matmul_shape(c.shapes[0], c.shapes[1]));
    return Outcome::unsupported_because("the engine has no op " + c.op);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_engine_oracle() { return std::make_unique<EngineOracle>(); }

}  // namespace bc
