// xt::xtensor_fixed for the shapes compiled in: the engine's values where the fixed shapes broadcast, and the
// reason where the path cannot run a case (a shape not compiled in, a pair refused at compile time, a self that
// would grow).
#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"
#include "oracles/xtensor_variants.h"

namespace bc {

using testing::make_case;

Outcome fixed(const std::string& op, std::vector<Shape> shapes, DType t = DType::float32) {
  Case c = make_case(op, std::move(shapes));
  c.dtypes = {t, t};
  c.values = ValueSpec{4, false, {}};
  return make_xtensor_fixed_oracle()->run(c);
}

TEST(XtensorFixed, CompiledShapesThatBroadcastGiveTheEnginesValues) {
  const std::vector<std::vector<Shape>> cases = {{{2, 3}, {3}}, {{1}, {2, 3}}, {{}, {2}}, {{3}, {3}}, {{2, 3}, {}}};
  for (const auto& shapes : cases)
    for (const std::string op : {"add", "mul", "add_", "div_"}) {
      Case c = make_case(op, shapes);
      c.dtypes = {DType::int64, DType::int64};
      c.values = ValueSpec{4, false, {}};
      const Outcome want = make_engine_oracle()->run(c);
      if (want.status != Status::ok) continue;  // in place with a larger result, an integer division
      const Outcome got = make_xtensor_fixed_oracle()->run(c);
      ASSERT_EQ(got.status, Status::ok) << op << " " << format_shape(shapes[0]) << " " << got.detail;
      EXPECT_EQ(got.shape, want.shape);
      EXPECT_EQ(got.values, want.values) << op << " " << format_shape(shapes[0]);
    }
}

TEST(XtensorFixed, SaysWhyItCannotRunACase) {
  EXPECT_NE(fixed("add", {{2}, {3}}).detail.find("compile time"), std::string::npos);
  EXPECT_NE(fixed("add", {{4}, {4}}).detail.find("not [4]"), std::string::npos);
  EXPECT_NE(fixed("add_", {{1}, {3}}).detail.find("past its storage"), std::string::npos);
  EXPECT_EQ(fixed("add", {{3}, {3}}, DType::float64).status, Status::unsupported);
  EXPECT_EQ(fixed("add", {{3}, {3}}, DType::float32).status, Status::ok);
}

}  // namespace bc
