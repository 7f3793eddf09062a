// The reductions against facts probed on LibTorch 1.13 (docs/notes/reductions.md): shapes, dtypes, values, texts in
// LibTorch's check order, and gradients (ties split evenly, prod with zeros).
#include "engine/reduction.h"

#include <cmath>

#include <gtest/gtest.h>

#include "tests/engine/autograd_test_util.h"

namespace bc::ag {
namespace {

using testing::grads;
using testing::var;
using Dims = std::vector<int64_t>;

Result<Var> run(Op op, const Var& t, std::optional<Dims> dims, bool keepdim = false, std::optional<DType> dtype = {}) {
  return reduce(op, t, ReduceArgs{std::move(dims), keepdim, dtype});
}

std::string message(const Result<Var>& r) { return r.ok() ? "ok" : r.error().message; }

Var x23(bool rg = false, DType t = DType::float32) { return var({2, 3}, {0, 1, 2, 3, 4, 5}, rg, t); }

TEST(Reduction, EmptyDimListReducesEveryDim) {
  const Result<Var> all = run(Op::sum, x23(), Dims{});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all.value()->data.sizes(), Shape{});
  EXPECT_EQ(all.value()->data.to_doubles(), std::vector<double>{15});
  const Result<Var> kept = run(Op::amin, x23(), Dims{}, true);
  EXPECT_EQ(kept.value()->data.sizes(), (Shape{1, 1}));
  EXPECT_EQ(kept.value()->data.to_doubles(), std::vector<double>{0});
  EXPECT_EQ(run(Op::mean, x23(), std::nullopt, true).value()->data.sizes(), (Shape{1, 1}));
}

TEST(Reduction, DimsAreWrappedThenCheckedForRepeats) {
  EXPECT_EQ(message(run(Op::sum, x23(), Dims{0, -2})), "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(message(run(Op::sum, x23(), Dims{0, 0, 5})),
            "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  EXPECT_EQ(message(run(Op::prod, x23(), Dims{-3})),
            "Dimension out of range (expected to be in range of [-2, 1], but got -3)");
  const Var scalar = var({}, {3}, false, DType::float32);
  EXPECT_EQ(run(Op::sum, scalar, Dims{-1}).value()->data.sizes(), Shape{});
  EXPECT_EQ(message(run(Op::sum, scalar, Dims{0, -1})), "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(message(run(Op::amax, scalar, Dims{1})),
            "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
}

TEST(Reduction, AmaxOfNothingIsRefusedBeforeOtherDimChecks) {
  const Var z = var({2, 0, 3}, {}, false, DType::float32);
  EXPECT_EQ(message(run(Op::amax, z, Dims{-2})), "amax(): Expected reduction dim -2 to have non-zero size.");
  EXPECT_EQ(message(run(Op::amin, z, Dims{1, 1})), "amin(): Expected reduction dim 1 to have non-zero size.");
  EXPECT_EQ(message(run(Op::amax, z, Dims{})),
            "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
            "the 'dim' argument.");
  EXPECT_EQ(run(Op::amax, z, Dims{0, 2}).value()->data.sizes(), Shape{0});
  const Result<Var> mean = run(Op::mean, z, Dims{1});
  EXPECT_TRUE(std::isnan(mean.value()->data.to_doubles()[0]));
  EXPECT_EQ(run(Op::prod, z, Dims{1}).value()->data.to_doubles(), std::vector<double>(6, 1.0));
}

TEST(Reduction, DtypesAndMeansDtypeChecks) {
  const Var ints = x23(false, DType::int64), bools = var({2}, {1, 1}, false, DType::bool_);
  EXPECT_EQ(message(run(Op::mean, ints, Dims{5})),
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            "Got: Long");
  EXPECT_EQ(message(run(Op::mean, x23(), Dims{0}, false, DType::int64)),
            "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. "
            "Got: Long");
  EXPECT_EQ(run(Op::mean, ints, Dims{0}, false, DType::float64).value()->data.dtype(), DType::float64);
  EXPECT_EQ(run(Op::sum, bools, std::nullopt).value()->data.dtype(), DType::int64);
  EXPECT_EQ(run(Op::prod, ints, Dims{0}).value()->data.to_doubles(), (std::vector<double>{0, 4, 10}));
  EXPECT_EQ(run(Op::amax, bools, Dims{0}).value()->data.dtype(), DType::bool_);
  // dtype= converts first: [0.5, 0.5, -0.7, 2.6] as int64 is [0, 0, 0, 2] (summing first would give 2 too, but
  // the products per column tell: 0 * 0 and 0 * 2, where products first give 0 and 1).
  const Var halves = var({2, 2}, {0.5, 0.5, -0.7, 2.6}, false, DType::float32);
  EXPECT_EQ(run(Op::prod, halves, Dims{0}, false, DType::int64).value()->data.to_doubles(), (std::vector<double>{0, 0}));
}

// LibTorch 1.13's CPU prod has no Half nor BFloat16 kernel ("prod_cpu" not implemented), dispatched on the
// result's dtype after the dims are checked; an input with no elements is filled with 1 without the kernel.
TEST(Reduction, ProdHasNoHalfKernelOnCpu) {
  EXPECT_EQ(message(run(Op::prod, x23(false, DType::float16), std::nullopt)), "\"prod_cpu\" not implemented for 'Half'");
  EXPECT_EQ(message(run(Op::prod, x23(false, DType::bfloat16), Dims{1})),
            "\"prod_cpu\" not implemented for 'BFloat16'");
  EXPECT_EQ(message(run(Op::prod, x23(false, DType::int64), Dims{0}, false, DType::float16)),
            "\"prod_cpu\" not implemented for 'Half'");
  EXPECT_EQ(message(run(Op::prod, x23(false, DType::float16), Dims{2})),
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  const Result<Var> empty = run(Op::prod, var({0, 2}, {}, false, DType::float16), Dims{0});
  ASSERT_TRUE(empty.ok()) << message(empty);
  EXPECT_EQ(empty.value()->data.to_doubles(), (std::vector<double>{1, 1}));
  EXPECT_EQ(message(run(Op::sum, x23(false, DType::float16), std::nullopt)), "ok");
}

TEST(Reduction, ExtremaSplitTheGradientAmongTies) {
  const std::vector<double> ties = {1, 3, 3, 2, 2, 2};
  const Var t = var({2, 3}, ties, true, DType::float32);
  const Result<Var> y = run(Op::amax, t, Dims{1});
  ASSERT_TRUE(y.ok()) << message(y);
  const auto g = grads(y, {t});
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(g[0].size(), 6u);
  EXPECT_EQ(g[0][0], 0);
  EXPECT_EQ(g[0][1], 0.5);
  EXPECT_EQ(g[0][2], 0.5);
  EXPECT_FLOAT_EQ(g[0][3], 1.0 / 3);
  const Var u = var({2, 3}, ties, true, DType::float32);
  EXPECT_EQ(grads(run(Op::amin, u, Dims{}), {u})[0], (std::vector<double>{1, 0, 0, 0, 0, 0}));
}

TEST(Reduction, ExtremumOfANanSliceGivesNanGradients) {  // (grad / 0 ties) * mask
  const Var n = var({3}, {1, NAN, 3}, true, DType::float32);
  const auto g = grads(run(Op::amax, n, Dims{0}), {n});
  ASSERT_EQ(g.size(), 1u);
  for (double x : g[0]) EXPECT_TRUE(std::isnan(x));
}

TEST(Reduction, ProdGradientWithZeros) {
  const std::vector<double> v = {0, 3, 2, 0, 0, 5};
  const Var a = var({2, 3}, v, true, DType::float32), b = var({2, 3}, v, true, DType::float32),
            c = var({2, 3}, v, true, DType::float32);
  EXPECT_EQ(grads(run(Op::prod, a, Dims{1}), {a})[0], (std::vector<double>{6, 0, 0, 0, 0, 0}));
  EXPECT_EQ(grads(run(Op::prod, b, Dims{0}), {b})[0], (std::vector<double>{0, 0, 5, 0, 3, 2}));
  EXPECT_EQ(grads(run(Op::prod, c, std::nullopt), {c})[0], std::vector<double>(6, 0.0));
  const Var d = x23(true);
  EXPECT_EQ(grads(run(Op::prod, d, Dims{1}, true), {d})[0], (std::vector<double>{2, 0, 0, 20, 15, 12}));
}

TEST(Reduction, NodesAndMeanGradient) {
  const Var t = x23(true);
  const Result<Var> m = run(Op::mean, t, Dims{}, false, DType::float64);
  EXPECT_EQ(m.value()->grad_fn->name, "MeanBackward1");
  EXPECT_EQ(run(Op::sum, t, std::nullopt).value()->grad_fn->name, "SumBackward0");
  const auto g = grads(m, {t});
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(t->grad->dtype(), DType::float32);
  EXPECT_FLOAT_EQ(g[0][0], 1.0 / 6);
}

}  // namespace
}  // namespace bc::ag
