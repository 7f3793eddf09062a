// fill_ and zero_ against what LibTorch 1.13.1 did in a probe (Tensor::fill_ and zero_ on fresh tensors, views of
// them and non-leaf results): values through expanded and overlapping views, c10's checked conversion of the value
// with its text, and autograd's refusals and zero gradients.
#include "engine/fill.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "engine/autograd_ops.h"

namespace bc {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

Tensor zeros(const Shape& s, DType t) { return Tensor::zeros(s, t); }

// fill_(value) on a fresh [3] tensor of `t`: the message of its error, or "" when it succeeds.
std::string refusal(DType t, Scalar value) {
  Tensor self = zeros({3}, t);
  const Result<Tensor> r = fill_(Op::fill_, self, value);
  return r.ok() ? "" : r.error().message;
}

}  // namespace

TEST(Fill, AnExpandedSelfWritesItsBaseOnceWithoutAnOverlapError) {
  // probe: zeros(3).expand({2, 3}).fill_(5) leaves the base [5, 5, 5]; as_strided({2, 3}, {1, 1}) of zeros(6)
  // leaves [5, 5, 5, 5, 0, 0].
  Tensor base = zeros({3}, DType::float32);
  Tensor expanded = base.expand({2, 3}).value();
  ASSERT_TRUE(fill_(Op::fill_, expanded, {5, true}).ok());
  EXPECT_EQ(base.to_doubles(), (std::vector<double>{5, 5, 5}));
  EXPECT_EQ(expanded.to_doubles(), std::vector<double>(6, 5));
  Tensor storage = zeros({6}, DType::float32);
  Tensor window = storage.as_strided({2, 3}, {1, 1}, 0).value();
  ASSERT_TRUE(fill_(Op::fill_, window, {5, true}).ok());
  EXPECT_EQ(storage.to_doubles(), (std::vector<double>{5, 5, 5, 5, 0, 0}));
  Tensor ones = Tensor::from_values({3}, DType::float32, {1, 1, 1});
  Tensor again = ones.expand({2, 3}).value();
  ASSERT_TRUE(fill_(Op::zero_, again, {7, true}).ok());  // zero_ ignores the value
  EXPECT_EQ(ones.to_doubles(), (std::vector<double>{0, 0, 0}));
}

TEST(Fill, TheValueIsConvertedAsCheckedByC10) {
  EXPECT_EQ(refusal(DType::int64, {kNan, false}), "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(refusal(DType::int64, {kInf, false}), "value cannot be converted to type int64_t without overflow");
  EXPECT_EQ(refusal(DType::int32, {3e9, true}), "value cannot be converted to type int without overflow");
  EXPECT_EQ(refusal(DType::int8, {127.9, false}), "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(refusal(DType::uint8, {256, true}), "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(refusal(DType::uint8, {-1.0, false}), "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(refusal(DType::float16, {1e5, false}), "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(refusal(DType::float16, {65519.0, false}), "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(refusal(DType::bfloat16, {3.4e38, false}),
            "value cannot be converted to type at::BFloat16 without overflow");
  EXPECT_EQ(refusal(DType::float32, {1e39, false}), "value cannot be converted to type float without overflow");
  // Taken: bool takes anything (2, -1, NaN, inf as true), an infinity or NaN fits every floating type.
  for (const Scalar v : {Scalar{2, true}, Scalar{-1, true}, Scalar{kNan, false}, Scalar{kInf, false}})
    EXPECT_EQ(refusal(DType::bool_, v), "");
  EXPECT_EQ(refusal(DType::float16, {kInf, false}), "");
  EXPECT_EQ(refusal(DType::float64, {1e300, false}), "");
  // The check does not depend on self's size: an empty int64 self refuses NaN too.
  Tensor empty = zeros({0}, DType::int64);
  EXPECT_FALSE(fill_(Op::fill_, empty, {kNan, false}).ok());
}

TEST(Fill, StoredValuesTruncateWrapAndKeepTheSignOfZero) {
  const auto filled = [](DType t, Scalar v) {
    Tensor self = zeros({2}, t);
    return fill_(Op::fill_, self, v).value().to_doubles();
  };
  EXPECT_EQ(filled(DType::int64, {2.5, false}), (std::vector<double>{2, 2}));
  EXPECT_EQ(filled(DType::int64, {-2.7, false}), (std::vector<double>{-2, -2}));
  EXPECT_EQ(filled(DType::uint8, {-1, true}), (std::vector<double>{255, 255}));
  EXPECT_EQ(filled(DType::bool_, {2, true}), (std::vector<double>{1, 1}));
  EXPECT_EQ(filled(DType::bool_, {-0.0, false}), (std::vector<double>{0, 0}));
  EXPECT_TRUE(std::signbit(filled(DType::float16, {-0.0, false})[0]));
  EXPECT_TRUE(std::isnan(filled(DType::float16, {kNan, false})[0]));
  EXPECT_EQ(filled(DType::float32, {0.1, false})[0], static_cast<double>(0.1f));
  Tensor negative = Tensor::from_values({1}, DType::float32, {-1});
  EXPECT_FALSE(std::signbit(fill_(Op::zero_, negative, {}).value().to_doubles()[0]));  // zero_ writes +0
}

TEST(Fill, AutogradRefusesALeafOrItsViewAndGivesZeroGradients) {
  using namespace ag;
  Var a = leaf(Tensor::from_values({3}, DType::float32, {1, 1, 1}), true).value();
  EXPECT_EQ(ag::fill_(Op::fill_, a, {1, true}).error().message,
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(ag::fill_(Op::zero_, a, {}).error().message,
            "a leaf Variable that requires grad is being used in an in-place operation.");
  // The leaf check comes before the conversion's (float16 cannot hold 1e5).
  Var h = leaf(Tensor::from_values({3}, DType::float16, {1, 1, 1}), true).value();
  EXPECT_EQ(ag::fill_(Op::fill_, h, {1e5, false}).error().kind, ErrorKind::leaf_inplace);
  // A non-leaf: x = a * 2, x.fill_(3): FillBackward2, and a's gradient is zeros (zero_: ZeroBackward0).
  for (const Op op : {Op::fill_, Op::zero_}) {
    Var b = leaf(Tensor::from_values({3}, DType::float32, {1, 1, 1}), true).value();
    Var two = leaf(Tensor::from_values({}, DType::float32, {2})).value();
    Var x = binary(Op::mul, b, two).value();
    Result<Var> r = ag::fill_(op, x, {3, true});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value()->grad_fn->name, op == Op::fill_ ? "FillBackward2" : "ZeroBackward0");
    ASSERT_TRUE(backward(r.value(), Tensor::from_values({3}, DType::float32, {1, 1, 1})).ok());
    EXPECT_EQ(b->grad->to_doubles(), (std::vector<double>{0, 0, 0}));
  }
}

}  // namespace bc
