// The shell the xtensor variants share: which ops and cases a variant takes, and that each variant runs isolated
// (a crash is an outcome) under its registered name.
#include "oracles/xtensor_variant.h"

#include <chrono>
#include <tuple>

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
  // Dtypes xtensor's main path cannot hold are refused as it refuses them, not failed as an error of the library.
  for (DType t : {DType::int8, DType::uint8, DType::int16, DType::int32, DType::float16, DType::bfloat16}) {
    Case narrow = make_case("add_", {{2}, {2}});
    narrow.values = ValueSpec{1, false, {}};
    narrow.dtypes = {t, t};
    EXPECT_EQ(oracle->run(narrow).status, Status::unsupported) << to_string(t);
  }
}

// A where's condition may have its own dtype; its operands share one.
TEST(XtensorVariant, WheresConditionIsNotCountedAmongTheDtypes) {
  Case c = make_case("where", {{2}, {2}, {2}});
  c.dtypes = {DType::int64, DType::float64, DType::float64};
  EXPECT_FALSE(xtv::mixed_dtypes(c, *xtv::variant_request(Op::where)));
  c.dtypes[2] = DType::float32;
  EXPECT_TRUE(xtv::mixed_dtypes(c, *xtv::variant_request(Op::where)));
}

// Each variant's refusal is what its oracle answers, and says nothing for a case the variant runs: a run decides
// refusals in its own process from these functions, so they must not drift from the oracles.
TEST(XtensorVariant, EachRefusalIsWhatItsOracleAnswers) {
  using Refusal = std::optional<Outcome> (*)(const Case&);
  const std::vector<std::tuple<std::string, std::unique_ptr<Oracle> (*)(), Refusal>> variants = {
      {"xtensor-noalias", make_xtensor_noalias_oracle, xtensor_noalias_refusal},
      {"xtensor-rank", make_xtensor_rank_oracle, xtensor_rank_refusal},
      {"xtensor-fixed", make_xtensor_fixed_oracle, xtensor_fixed_refusal},
      {"xtensor-lazy", make_xtensor_lazy_oracle, xtensor_lazy_refusal}};
  auto valued = [](Case c) {
    c.values = ValueSpec{1, false, {}};
    return c;
  };
  Case mixed = valued(make_case("add", {{2}, {2}}));
  mixed.dtypes = {DType::float32, DType::int64};
  Case grad = valued(make_case("add", {{2}, {2}}));
  grad.requires_grad = {true, false};
  Case strided_self = valued(make_case("mul_", {{2, 3}, {3}}));
  strided_self.layouts = {Layout::strided, Layout::contiguous};
  Case alpha = valued(make_case("sub", {{3}, {3}}));
  alpha.scalars["alpha"] = Scalar{2, true};
  Case int32 = valued(make_case("add", {{2}, {2}}));
  int32.dtypes = {DType::int32, DType::int32};
  Case where = valued(make_case("where", {{2}, {2}, {2}}));
  where.dtypes = {DType::bool_, DType::float32, DType::float32};
  const std::vector<Case> cases = {
      make_case("add", {{2}, {2}}), valued(make_case("eq", {{2}, {2}})), mixed, grad, strided_self, alpha, int32,
      valued(make_case("add", {{2, 3}, {3}})), valued(make_case("add", {{4}, {4}})), valued(make_case("add_", {{3}, {3}})),
      where, valued(make_case("neg", {{2}}))};
  int refused = 0, ran = 0;
  for (const auto& [name, make, refusal] : variants) {
    auto oracle = make();
    for (const Case& c : cases) {
      const std::optional<Outcome> r = refusal(c);
      const Outcome o = oracle->run(c);
      if (r) {
        ++refused;
        EXPECT_EQ(*r, o) << name << " on " << describe(c);
        EXPECT_EQ(r->detail, o.detail) << name << " on " << describe(c);
      } else {
        ++ran;
        EXPECT_NE(o.status, Status::unsupported) << name << " refused " << describe(c) << ": " << o.detail;
      }
    }
  }
  EXPECT_GT(refused, 20);
  EXPECT_GT(ran, 10);
  // The path-specific refusals, each in its own variant's refusal.
  EXPECT_NE(xtensor_lazy_refusal(valued(make_case("add_", {{3}, {3}})))->detail.find("in-place"), std::string::npos);
  EXPECT_NE(xtensor_fixed_refusal(valued(make_case("add", {{4}, {4}})))->detail.find("not [4]"), std::string::npos);
  EXPECT_NE(xtensor_rank_refusal(strided_self)->detail.find("mixes ranks"), std::string::npos);
  Case strided_one_rank = strided_self;
  strided_one_rank.shapes = {{2, 3}, {2, 3}};
  EXPECT_NE(xtensor_rank_refusal(strided_one_rank)->detail.find("owns its data"), std::string::npos);
  EXPECT_EQ(*xtensor_rank_refusal(strided_one_rank), make_xtensor_rank_oracle()->run(strided_one_rank));
  EXPECT_FALSE(xtensor_noalias_refusal(strided_self));
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
