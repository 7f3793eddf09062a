#include "properties/finite_difference.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracles/engine_oracle.h"
#include "properties/shape_gen.h"

namespace bc {
namespace {

Case grad_case(const std::string& op, std::vector<Shape> shapes, std::vector<Values> data) {
  Case c;
  c.op = op;
  c.shapes = std::move(shapes);
  c.requires_grad.assign(c.shapes.size(), true);
  c.values = ValueSpec{0, false, std::move(data)};
  return c;
}

// The engine with its gradients doubled: a planted bug the check must see.
class DoubledGrads : public Oracle {
 public:
  std::string name() const override { return "engine"; }
  std::string version() const override { return "test"; }
  Outcome run(const Case& c) override {
    Outcome o = engine_->run(c);
    for (auto& g : o.grads)
      if (g)
        for (double& v : g->values.floats()) v *= 2;
    return o;
  }

 private:
  std::unique_ptr<Oracle> engine_ = make_engine_oracle();
};

}  // namespace

TEST(FiniteDifference, AgreesWithTheEngineAndCatchesAWrongGradient) {
  auto engine = make_engine_oracle();
  const Case c = grad_case("mul", {{2, 3}, {3}}, {{1, -2, 0.5, 3, 4, -1}, {2, 0.5, -3}});
  const FiniteDifferenceResult ok = check_finite_differences(c, *engine);
  EXPECT_EQ(ok.violation, "");
  EXPECT_EQ(ok.compared, 9);
  DoubledGrads wrong;
  EXPECT_NE(check_finite_differences(c, wrong).violation, "");
}

TEST(FiniteDifference, SkipsKinksAndUnresolvableSteps) {
  auto engine = make_engine_oracle();
  // maximum at a tie has a kink: both elements of a are tied with b.
  const FiniteDifferenceResult tie = check_finite_differences(grad_case("maximum", {{2}, {1}}, {{1, 1}, {1}}), *engine);
  EXPECT_EQ(tie.violation, "");
  EXPECT_EQ(tie.compared, 0);
  EXPECT_EQ(tie.skipped, 3);
  // 1e300 - x: a step of 1e-6 in x cannot move a float64 output of 1e300.
  const FiniteDifferenceResult big = check_finite_differences(grad_case("sub", {{}, {}}, {{1e300}, {1}}), *engine);
  EXPECT_EQ(big.violation, "");
  EXPECT_EQ(big.skipped, 2);
}

TEST(FiniteDifference, SkipsJumpsThatLookAlikeFromBothSides) {
  auto engine = make_engine_oracle();
  // sign jumps by 1 on each side of 0: both one-sided quotients are 1/h, but halving the step doubles them.
  const FiniteDifferenceResult jump = check_finite_differences(grad_case("sign", {{3}}, {{0, 2, -3}}), *engine);
  EXPECT_EQ(jump.violation, "");
  EXPECT_EQ(jump.compared, 2);  // 2 and -3, where sign is flat and its gradient 0
  EXPECT_EQ(jump.skipped, 1);
  const FiniteDifferenceResult smooth = check_finite_differences(grad_case("exp", {{2}}, {{0.5, -1}}), *engine);
  EXPECT_EQ(smooth.violation, "");
  EXPECT_EQ(smooth.compared, 2);
}

// The generator's gradient cases, checked on the engine alone (the same check `broadcheck run` makes).
RC_GTEST_PROP(FiniteDifference, EngineGradientsMatchFiniteDifferences, ()) {
  static auto engine = make_engine_oracle();
  const Case c = *gen::grad_case(3);
  const FiniteDifferenceResult r = check_finite_differences(c, *engine);
  RC_LOG() << to_json(c).dump() << "\n";
  RC_ASSERT(r.violation == "");
}

}  // namespace bc
