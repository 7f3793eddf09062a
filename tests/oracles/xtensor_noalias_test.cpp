// xt::noalias writes the result as it computes it: out of place the same values as the plain path; in place, an
// input that shares self's memory (an overlapping operand, an expanded self) is read after earlier elements were
// written, where plain computed assignment evaluates a temporary first (oracles/xtensor_values.cpp), and a
// transposed input of a transposed self is read in the wrong order.
#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"
#include "oracles/xtensor_values.h"
#include "oracles/xtensor_variants.h"

namespace bc {

using testing::make_case;

TEST(XtensorNoalias, OutOfPlaceBroadcastsAsTheEngineDoes) {
  auto noalias = make_xtensor_noalias_oracle();
  for (const std::string op : {"add", "sub", "mul", "div"}) {
    Case c = make_case(op, {{2, 1, 3}, {4, 1}});
    c.layouts = {Layout::transposed, Layout::strided};
    c.values = ValueSpec{5, false, {}};
    const Outcome want = make_engine_oracle()->run(c);
    const Outcome got = noalias->run(c);
    ASSERT_EQ(got.status, Status::ok) << op << " " << got.detail;
    EXPECT_EQ(got.shape, (Shape{2, 4, 3})) << op;
    EXPECT_EQ(got.values, want.values) << op;
  }
}

// self [2, 3] = 1..6, other the first row of self's own storage: the second row adds the first row as written.
TEST(XtensorNoalias, AnOverlappingInputIsReadAsItIsWritten) {
  Case c = make_case("add_", {{2, 3}, {3}});
  c.layouts = {Layout::contiguous, Layout::overlapping};
  c.values = ValueSpec{0, false, {{1, 2, 3, 4, 5, 6}, {}}};
  const Outcome o = make_xtensor_noalias_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{2, 4, 6, 4 + 2, 5 + 4, 6 + 6}));
  EXPECT_EQ(run_xtensor_values(c).values, (std::vector<double>{2, 4, 6, 5, 7, 9}));  // the plain path
}

// An expanded self [3, 2] over one base row: each row's write accumulates into the same two elements.
TEST(XtensorNoalias, AnExpandedSelfAccumulatesEveryRow) {
  Case c = make_case("add_", {{3, 2}, {3, 2}});
  c.layouts = {Layout::expanded, Layout::contiguous};
  c.values = ValueSpec{0, false, {{1, 2, 1, 2, 1, 2}, {10, 20, 30, 40, 50, 60}}};
  const Outcome o = make_xtensor_noalias_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{91, 122, 91, 122, 91, 122}));
  EXPECT_EQ(run_xtensor_values(c).values, (std::vector<double>{51, 62, 51, 62, 51, 62}));  // the plain path
}

// Two transposed [2, 3] matrices of separate storage, no aliasing: self sees 1..6 (stored 1 4 2 5 3 6), other
// 10..60 (stored 10 40 20 50 30 60). The linear assignment walks self's storage and other's row-major values (its
// xt::broadcast read through the wrong xt::linear_begin, docs/notes/xtensor-variants.md "Include order"): stored
// 1+10 4+20 2+30 5+40 3+50 6+60, which self reads as 11 32 53 24 45 66. Declared:
// xtensor-noalias-broadcast-read-row-major.
TEST(XtensorNoalias, ATransposedSelfMeetsATransposedInputInRowMajorOrder) {
  Case c = make_case("add_", {{2, 3}, {2, 3}});
  c.layouts = {Layout::transposed, Layout::transposed};
  c.values = ValueSpec{0, false, {{1, 2, 3, 4, 5, 6}, {10, 20, 30, 40, 50, 60}}};
  const Outcome o = make_xtensor_noalias_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, (std::vector<double>{11, 32, 53, 24, 45, 66}));
  EXPECT_EQ(run_xtensor_values(c).values, (std::vector<double>{11, 22, 33, 44, 55, 66}));  // the plain path
  c.layouts = {Layout::transposed, Layout::contiguous};  // other's strides differ from self's: no linear assignment
  EXPECT_EQ(make_xtensor_noalias_oracle()->run(c).values, (std::vector<double>{11, 22, 33, 44, 55, 66}));
}

TEST(XtensorNoalias, AContiguousSelfStillCannotGrowAndAViewIsNotRunPastItsEnd) {
  Case c = make_case("add_", {{1, 3}, {2, 3}});
  c.values = ValueSpec{1, false, {}};
  const Outcome adaptor = make_xtensor_noalias_oracle()->run(c);
  ASSERT_EQ(adaptor.status, Status::error);
  EXPECT_NE(adaptor.error->message.find("resiz"), std::string::npos) << adaptor.error->message;
  c.layouts = {Layout::strided, Layout::contiguous};
  EXPECT_EQ(make_xtensor_noalias_oracle()->run(c).status, Status::unsupported);
}

TEST(XtensorNoalias, WhereTakesAnyCondition) {
  Case c = make_case("where", {{3}, {3}, {3}});
  c.dtypes = {DType::float64, DType::int64, DType::int64};
  c.values = ValueSpec{0, false, {{0.5, 0, -0.0}, Values(std::vector<int64_t>{1, 2, 3}),
                                  Values(std::vector<int64_t>{7, 8, 9})}};
  const Outcome o = make_xtensor_noalias_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << o.detail;
  EXPECT_EQ(o.values, Values(std::vector<int64_t>{1, 8, 9}));
}

}  // namespace bc
