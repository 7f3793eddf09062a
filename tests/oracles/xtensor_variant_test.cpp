// The shell the xtensor variants share: which ops and cases a variant takes, and that each variant runs isolated
// (a crash is an outcome) under its registered name.
#include "oracles/xtensor_variant.h"

#include <chrono>

#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/isolated_oracle.h"
#include "oracles/xtensor_variants.h"

namespace bc {

using testing::make_case;

TEST(XtensorVariant, RunsTheFourArithmeticOpsTheirInPlaceFormsAndWhere) {
  EXPECT_EQ(xtv::variant_request(Op::add_)->op, xtv::VariantOp::add);
  EXPECT_TRUE(xtv::variant_request(Op::add_)->inplace);
  EXPECT_FALSE(xtv::variant_request(Op::div)->inplace);
  EXPECT_EQ(xtv::variant_request(Op::where)->op, xtv::VariantOp::where);
  EXPECT_FALSE(xtv::variant_request(Op::eq));
  EXPECT_FALSE(xtv::variant_request(Op::addcmul));
}

TEST(XtensorVariant, RefusesWhatNoPathRuns) {
  auto oracle = make_xtensor_lazy_oracle();
  Case shapes_only = make_case("add", {{2}, {2}});
  EXPECT_EQ(oracle->run(shapes_only).status, Status::unsupported);
  Case eq = make_case("eq", {{2}, {2}});
  eq.values = ValueSpec{1, false, {}};
  EXPECT_EQ(oracle->run(eq).status, Status::unsupported);
  Case mixed = make_case("add", {{2}, {2}});
  mixed.values = ValueSpec{1, false, {}};
  mixed.dtypes = {DType::float32, DType::int64};
  const Outcome o = oracle->run(mixed);
  EXPECT_EQ(o.status, Status::unsupported);
  EXPECT_NE(o.detail.find("one dtype"), std::string::npos);
  Case grad = make_case("add", {{2}, {2}});
  grad.values = ValueSpec{1, false, {}};
  grad.requires_grad = {true, false};
  EXPECT_EQ(oracle->run(grad).status, Status::unsupported);
}

// A where's condition may have its own dtype; its operands share one.
TEST(XtensorVariant, WheresConditionIsNotCountedAmongTheDtypes) {
  Case c = make_case("where", {{2}, {2}, {2}});
  c.dtypes = {DType::int64, DType::float64, DType::float64};
  EXPECT_FALSE(xtv::mixed_dtypes(c, *xtv::variant_request(Op::where)));
  c.dtypes[2] = DType::float32;
  EXPECT_TRUE(xtv::mixed_dtypes(c, *xtv::variant_request(Op::where)));
}

// Isolated as xtensor is: integer division by zero traps in every path, and the trap is the case's outcome.
TEST(XtensorVariant, EachVariantRunsIsolatedAndATrapIsACrash) {
  Case c = make_case("div", {{2}, {2}});
  c.dtypes = {DType::int64, DType::int64};
  c.values = ValueSpec{0, false, {Values(std::vector<int64_t>{1, 2}), Values(std::vector<int64_t>{1, 0})}};
  const std::vector<std::pair<std::string, std::unique_ptr<Oracle> (*)()>> variants = {
      {"xtensor-noalias", make_xtensor_noalias_oracle},
      {"xtensor-rank", make_xtensor_rank_oracle},
      {"xtensor-fixed", make_xtensor_fixed_oracle},
      {"xtensor-lazy", make_xtensor_lazy_oracle}};
  for (const auto& [name, make] : variants) {
    auto isolated = make_isolated_oracle(make, std::chrono::milliseconds(10000));
    EXPECT_EQ(isolated->name(), name);
    const Outcome o = isolated->run(c);
    EXPECT_EQ(o.status, Status::crash) << name << ": " << o.detail;
    EXPECT_EQ(o.detail, "SIGFPE") << name;
  }
}

}  // namespace bc
