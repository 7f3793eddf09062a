// The gate in front of an oracle: a refused case is answered by the gate and never reaches the oracle (neither
// submitted nor run); any other case is the oracle's.
#include "oracles/gated_oracle.h"

#include <gtest/gtest.h>

#include "oracle_test_util.h"

namespace bc {
namespace {

using testing::make_case;

// Counts what reaches it; answers ok with the first shape.
class Counting : public Oracle {
 public:
  Counting(int& submitted, int& ran) : submitted_(submitted), ran_(ran) {}
  std::string name() const override { return "counting"; }
  std::string version() const override { return "1"; }
  void submit(const Case&) override { ++submitted_; }
  Outcome run(const Case& c) override {
    ++ran_;
    return Outcome::success(c.shapes.front());
  }

 private:
  int &submitted_, &ran_;
};

std::optional<Outcome> refuse_mul(const Case& c) {
  if (c.op == Op::mul) return Outcome::unsupported_because("no mul here");
  return std::nullopt;
}

TEST(GatedOracle, ARefusedCaseNeverReachesTheOracle) {
  int submitted = 0, ran = 0;
  auto gated = make_gated_oracle(refuse_mul, std::make_unique<Counting>(submitted, ran));
  EXPECT_EQ(gated->name(), "counting");
  EXPECT_EQ(gated->version(), "1");
  const Case mul = make_case("mul", {{2}, {2}});
  gated->submit(mul);
  const Outcome refused = gated->run(mul);
  EXPECT_EQ(refused.status, Status::unsupported);
  EXPECT_EQ(refused.detail, "no mul here");
  EXPECT_EQ(submitted, 0);
  EXPECT_EQ(ran, 0);
  const Case add = make_case("add", {{3}, {3}});
  gated->submit(add);
  EXPECT_EQ(gated->run(add), Outcome::success({3}));
  EXPECT_EQ(submitted, 1);
  EXPECT_EQ(ran, 1);
}

TEST(GatedOracle, NeedsAGateAndAnOracle) {
  int submitted = 0, ran = 0;
  EXPECT_THROW(make_gated_oracle({}, std::make_unique<Counting>(submitted, ran)), std::invalid_argument);
  EXPECT_THROW(make_gated_oracle(refuse_mul, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace bc
