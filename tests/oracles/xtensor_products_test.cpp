// The xtensor oracle on the products, fused products and addcmul/addcdiv: values against hand computations (and
// against the engine where the two must agree), the adapter's own checks, xtensor's broadcast errors, in place.
#include <cmath>

#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"
#include "oracles/xtensor_oracle.h"

namespace bc {

using testing::make_case;

namespace {

Case with_data(const std::string& op, std::vector<Shape> shapes, std::vector<Values> data,
               std::vector<Layout> layouts = {}) {
  Case c = make_case(op, std::move(shapes));
  c.values = ValueSpec{0, false, std::move(data)};
  c.layouts = std::move(layouts);
  return c;
}
std::vector<double> iota(int n) {
  std::vector<double> v;
  for (int k = 1; k <= n; ++k) v.push_back(k);
  return v;
}

}  // namespace

TEST(XtensorProducts, BatchDimsBroadcastByXtensor) {
  // [2, 1, 1, 2] @ [3, 2, 1] -> [2, 3, 1, 1]; element (i, j) = a[i] . b[j].
  const Case c = with_data("matmul", {{2, 1, 1, 2}, {3, 2, 1}}, {{1, 2, 3, 4}, iota(6)});
  const Outcome o = make_xtensor_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << summarize(o);
  EXPECT_EQ(o.shape, (Shape{2, 3, 1, 1}));
  EXPECT_EQ(o.values, (std::vector<double>{5, 11, 17, 11, 25, 39}));
  EXPECT_EQ(o.dtype, "float32");
}

TEST(XtensorProducts, OneDimensionalOperandsLoseTheirAddedDim) {
  auto x = make_xtensor_oracle();
  const Outcome row = x->run(with_data("matmul", {{2}, {3, 2, 2}}, {{1, 2}, iota(12)}));
  EXPECT_EQ(row.shape, (Shape{3, 2}));
  EXPECT_EQ(row.values, (std::vector<double>{7, 10, 19, 22, 31, 34}));
  const Outcome column = x->run(with_data("matmul", {{2, 2}, {2}}, {{1, 2, 3, 4}, {1, 1}}));
  EXPECT_EQ(column.shape, (Shape{2}));
  EXPECT_EQ(column.values, (std::vector<double>{3, 7}));
  const Outcome dot = x->run(with_data("dot", {{3}, {3}}, {{1, 2, 3}, {4, 5, 6}}));
  EXPECT_EQ(dot.shape, Shape{});
  EXPECT_EQ(dot.values, (std::vector<double>{32}));
}

TEST(XtensorProducts, LayoutsAreReadThroughTheirViews) {
  // The same product with transposed and strided operands equals the engine's.
  auto x = make_xtensor_oracle();
  auto engine = make_engine_oracle();
  for (const auto& l : std::vector<std::vector<Layout>>{{Layout::transposed, Layout::strided},
                                                         {Layout::strided, Layout::transposed},
                                                         {Layout::expanded, Layout::contiguous}}) {
    Case c = make_case("matmul", {{2, 3, 4}, {4, 5}});
    c.values = ValueSpec{7, false, {}};
    c.layouts = l;
    const Outcome want = engine->run(c), got = x->run(c);
    ASSERT_EQ(want.status, Status::ok);
    EXPECT_EQ(got.shape, want.shape);
    EXPECT_EQ(got.values, want.values) << to_string(l[0]) << "/" << to_string(l[1]);
  }
}

TEST(XtensorProducts, TheAdapterChecksWhatXtensorCannot) {
  auto x = make_xtensor_oracle();
  // A contracted size of 1 would broadcast silently; the adapter refuses it.
  const Outcome inner = x->run(make_case("matmul", {{2, 1}, {3, 4}}));
  EXPECT_EQ(inner.status, Status::error);
  EXPECT_EQ(inner.error->kind, ErrorKind::matmul_shape);
  EXPECT_EQ(inner.error->message.rfind("xtensor oracle: ", 0), 0u);
  EXPECT_EQ(x->run(make_case("bmm", {{2, 2, 3}, {1, 3, 4}})).error->kind, ErrorKind::matmul_shape);  // no broadcast
  EXPECT_EQ(x->run(make_case("mm", {{2, 3, 4}, {4, 2}})).error->kind, ErrorKind::matmul_shape);
  // A batch conflict is xtensor's own broadcast error.
  const Outcome batch = x->run(make_case("matmul", {{4, 2, 3, 5}, {3, 2, 5, 6}}));
  EXPECT_EQ(batch.error->kind, ErrorKind::broadcast);
  EXPECT_EQ(batch.error->message.find("xtensor oracle"), std::string::npos);
}

TEST(XtensorProducts, FusedOpsStretchC) {
  auto x = make_xtensor_oracle();
  Case c = with_data("addmm", {{2}, {2, 1}, {1, 2}}, {{10, 20}, {1, 2}, {3, 4}});
  c.scalars["beta"] = Scalar{2, true};
  c.scalars["alpha"] = Scalar{0.5, false};
  const Outcome o = x->run(c);
  EXPECT_EQ(o.shape, (Shape{2, 2}));
  EXPECT_EQ(o.values, (std::vector<double>{21.5, 42, 23, 44}));  // 2 * c + 0.5 * [[3, 4], [6, 8]]
  EXPECT_EQ(o.dtype, "float64");  // 0.5 is a double: C++'s conversions
  const Outcome s = x->run(with_data("addbmm", {{}, {2, 1, 1}, {2, 1, 1}}, {{1}, {2, 3}, {4, 5}}));
  EXPECT_EQ(s.values, (std::vector<double>{24}));  // 1 + 2 * 4 + 3 * 5
  EXPECT_EQ(x->run(make_case("addmm", {{4}, {2, 3}, {3, 3}})).error->kind, ErrorKind::expand);
}

TEST(XtensorProducts, InPlaceWritesThroughCsView) {
  auto x = make_xtensor_oracle();
  const Outcome o = x->run(with_data("addmm_", {{2, 2}, {2, 1}, {1, 2}}, {{1, 2, 3, 4}, {1, 1}, {1, 1}},
                                     {Layout::transposed, Layout::contiguous, Layout::contiguous}));
  ASSERT_EQ(o.status, Status::ok) << summarize(o);
  // c is a transposed view whose elements, as the op sees them, are the data: [[1, 2], [3, 4]] + [[1, 1], [1, 1]].
  EXPECT_EQ(o.values, (std::vector<double>{2, 3, 4, 5}));
  const Case c = with_data("addmm_", {{2, 2}, {2, 1}, {1, 2}}, {{1, 2, 3, 4}, {1, 1}, {1, 1}},
                           {Layout::transposed, Layout::contiguous, Layout::contiguous});
  EXPECT_EQ(make_engine_oracle()->run(c).values, o.values);
}

TEST(XtensorProducts, GradientsReduceBroadcastBatchDims) {
  // [2, 1, 1, 2] @ [3, 2, 1] with upstream ones: each a[i] meets all three b[j] (gradient: the sum of the b[j]),
  // each b[j] both a[i] (the sum of the a[i]), as worked out in tests/engine/autograd_products_test.cpp.
  Case c = with_data("matmul", {{2, 1, 1, 2}, {3, 2, 1}}, {{1, 2, 3, 4}, iota(6)});
  c.requires_grad = {true, true};
  const Outcome o = make_xtensor_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << summarize(o);
  ASSERT_EQ(o.grads.size(), 2u);
  EXPECT_EQ(o.grads[0]->shape, (Shape{2, 1, 1, 2}));
  EXPECT_EQ(o.grads[0]->values, (std::vector<double>{9, 12, 9, 12}));
  EXPECT_EQ(o.grads[1]->values, (std::vector<double>{4, 6, 4, 6, 4, 6}));
}

TEST(XtensorProducts, FusedGradientsCarryBetaAndAlpha) {
  // addmm(c [2], a, b, beta=2, alpha=3), upstream ones: c gets 2 per row over 2 rows, a 3 * ones @ b^T, b 3 * a^T @ ones.
  Case c = with_data("addmm", {{2}, {2, 2}, {2, 2}}, {{0, 0}, {1, 2, 3, 4}, {5, 6, 7, 8}});
  c.requires_grad = {true, true, true};
  c.scalars["beta"] = Scalar{2, true};
  c.scalars["alpha"] = Scalar{3, true};
  c.dtypes = {DType::float64, DType::float64, DType::float64};
  const Outcome o = make_xtensor_oracle()->run(c);
  ASSERT_EQ(o.status, Status::ok) << summarize(o);
  EXPECT_EQ(o.grads[0]->values, (std::vector<double>{4, 4}));
  EXPECT_EQ(o.grads[1]->values, (std::vector<double>{33, 45, 33, 45}));
  EXPECT_EQ(o.grads[2]->values, (std::vector<double>{12, 12, 18, 18}));
  // addbmm: the summed product's gradient reaches every batch entry.
  Case s = with_data("addbmm", {{}, {2, 1, 2}, {2, 2, 1}}, {{0}, {1, 2, 3, 4}, {5, 6, 7, 8}});
  s.requires_grad = {true, true, true};
  const Outcome so = make_xtensor_oracle()->run(s);
  ASSERT_EQ(so.status, Status::ok) << summarize(so);
  EXPECT_EQ(so.grads[1]->values, (std::vector<double>{5, 6, 7, 8}));
  EXPECT_EQ(so.grads[2]->values, (std::vector<double>{1, 2, 3, 4}));
}

TEST(XtensorAddc, FusedAndUnfusedOnXtensor) {
  auto x = make_xtensor_oracle();
  Case c = with_data("addcdiv", {{2}, {2}, {2}}, {{1, 1}, {3, 6}, {2, 4}});
  c.scalars["value"] = Scalar{2, true};
  EXPECT_EQ(x->run(c).values, (std::vector<double>{4, 4}));
  Case ints = with_data("addcdiv", {{1}, {1}, {1}}, {{0}, {3}, {2}});
  ints.dtypes = {DType::int64, DType::int64, DType::int64};
  ints.scalars["value"] = Scalar{0.5, false};
  EXPECT_EQ(x->run(ints).values, (std::vector<double>{0.75}));  // (0.5 * 3) / 2 in double
  ints.op = Op::unfused_addcdiv;
  EXPECT_EQ(x->run(ints).values, (std::vector<double>{0.5}));  // 0.5 * (3 / 2), the division in int64
  Case mixed = with_data("addcmul", {{1}, {1}, {1}}, {{0}, {1}, {1}});
  mixed.dtypes = {DType::float32, DType::float64, DType::float32};
  EXPECT_EQ(x->run(mixed).status, Status::unsupported);
}

}  // namespace bc
