// The out= form against what LibTorch 1.13.1 did in a probe (at::add_out, at::mul_out, ... on the same inputs):
// the order of its checks, the resize and its warning text, and the cast of the result into out's dtype.
#include "engine/out_form.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

Tensor floats(std::vector<double> v) { return Tensor::from_values({static_cast<int64_t>(v.size())}, DType::float32, v); }
Tensor longs(std::vector<double> v) { return Tensor::from_values({static_cast<int64_t>(v.size())}, DType::int64, v); }

}  // namespace

TEST(OutForm, AnOutWithElementsOfAnotherShapeIsResizedWithAWarning) {
  const Result<OutForm> r = binary_out_form(Op::add, floats({1, 1, 1}), floats({1}), {}, {2}, DType::float32, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().result.sizes(), (Shape{3}));
  ASSERT_EQ(r.value().warnings.size(), 1u);
  EXPECT_EQ(r.value().warnings[0].rfind("An output with one or more elements was resized since it had shape [2], "
                                        "which does not match the required output shape [3].", 0), 0u);
  // The right shape, an empty out of any shape: no warning. A 0-d out and a [3, 1] out have elements: warned.
  for (const Shape& quiet : {Shape{3}, Shape{0}, Shape{0, 2}})
    EXPECT_TRUE(binary_out_form(Op::add, floats({1, 1, 1}), floats({1}), {}, quiet, DType::float32, false).value().warnings.empty());
  for (const Shape& loud : {Shape{}, Shape{3, 1}})
    EXPECT_EQ(binary_out_form(Op::add, floats({1, 1, 1}), floats({1}), {}, loud, DType::float32, false).value().warnings.size(), 1u);
}

TEST(OutForm, TheResultTypeMustCastToOutsDtypeAndIsComputedBeforeTheCast) {
  const Result<OutForm> bad = binary_out_form(Op::add, floats({1}), floats({1}), {}, {2}, DType::int64, false);
  ASSERT_FALSE(bad.ok());  // no warning first: the cast is refused before any resize
  EXPECT_EQ(bad.error().message, "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(binary_out_form(Op::hypot, longs({1}), longs({1}), {}, {1}, DType::bool_, false).error().message,
            "result type Long can't be cast to the desired output type Bool");
  // div of float32 into float64: computed in float32 (1/3 rounded there), then widened.
  const Result<OutForm> third = binary_out_form(Op::div, floats({1}), floats({3}), {}, {1}, DType::float64, false);
  EXPECT_EQ(third.value().result.dtype(), DType::float64);
  EXPECT_EQ(third.value().result.to_doubles()[0], static_cast<double>(1.0f / 3.0f));
  // bool + bool is stored as bool before the float out gets it: 1, not 2 (probe: add_out of two true into float).
  const Tensor yes = Tensor::from_values({1}, DType::bool_, {1});
  EXPECT_EQ(binary_out_form(Op::add, yes, yes, {}, {1}, DType::float32, false).value().result.to_doubles(),
            (std::vector<double>{1}));
  // A comparison into a float out: 1.0.
  EXPECT_EQ(binary_out_form(Op::eq, floats({1}), floats({1}), {}, {1}, DType::float32, false).value().result.to_doubles(),
            (std::vector<double>{1}));
}

TEST(OutForm, ChecksComeInLibTorchsOrder) {
  // Autograd refuses first (even before broadcasting), for ops with a formula; not for comparisons or floor_divide.
  EXPECT_EQ(binary_out_form(Op::mul, floats({1, 1, 1}), floats({1, 1}), {}, {3}, DType::float32, true).error().message,
            "mul(): functions with out=... arguments don't support automatic differentiation, but one of the "
            "arguments requires grad.");
  EXPECT_TRUE(binary_out_form(Op::eq, floats({1}), floats({1}), {}, {1}, DType::bool_, true).ok());
  EXPECT_TRUE(binary_out_form(Op::floor_divide, floats({1}), floats({1}), {}, {1}, DType::float32, true).ok());
  // Broadcasting before the cast; the kernel and integer division by zero after it.
  EXPECT_EQ(binary_out_form(Op::add, floats({1, 1, 1}), floats({1, 1}), {}, {3}, DType::int64, false).error().kind,
            ErrorKind::broadcast);
  const Tensor flags = Tensor::from_values({1}, DType::bool_, {1});
  EXPECT_EQ(binary_out_form(Op::floor_divide, flags, flags, {}, {1}, DType::float32, false).error().message,
            "\"div_floor_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(binary_out_form(Op::floor_divide, longs({1}), longs({0}), {}, {1}, DType::float32, false).error().message,
            "ZeroDivisionError");
  EXPECT_EQ(binary_out_form(Op::add, longs({1}), longs({1}), Scalar{2.5, false}, {1}, DType::float32, false).error().message,
            "For integral input tensors, argument alpha must not be a floating point number.");
}

}  // namespace bc
