#include "engine/elementwise.h"

#include <cmath>

#include <limits>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/broadcast.h"
#include "properties/shape_gen.h"

namespace bc {
namespace {

Tensor longs(std::vector<double> v) { return Tensor::from_values({static_cast<int64_t>(v.size())}, DType::int64, v); }
Tensor floats(std::vector<double> v) {
  return Tensor::from_values({static_cast<int64_t>(v.size())}, DType::float32, v);
}
double first(const Result<Tensor>& r) { return r.value().to_doubles().at(0); }
std::string error_of(const Result<Tensor>& r) { return r.ok() ? "(ok)" : r.error().message; }

}  // namespace

// Values, dtypes and messages below were observed on libtorch-dev 1.13.1 for the same inputs.
TEST(Elementwise, IntegerCornerCases) {
  EXPECT_EQ(first(binary(Op::remainder, longs({-7}), longs({3}))), 2);  // floor-mod
  EXPECT_EQ(first(binary(Op::fmod, longs({-7}), longs({3}))), -1);      // truncated
  EXPECT_EQ(error_of(binary(Op::remainder, longs({7}), longs({0}))), "ZeroDivisionError");
  EXPECT_EQ(error_of(binary(Op::fmod, longs({7}), longs({0}))), "ZeroDivisionError");
  Result<Tensor> d = binary(Op::div, longs({7}), longs({0}));
  EXPECT_EQ(d.value().dtype(), DType::float32);
  EXPECT_TRUE(std::isinf(first(d)));
  EXPECT_EQ(first(binary(Op::pow, longs({2}), longs({-1}))), 0);
  EXPECT_EQ(first(binary(Op::pow, longs({-1}), longs({-3}))), -1);
  EXPECT_EQ(first(binary(Op::remainder, longs({INT64_MIN}), longs({-1}))), 0);  // LibTorch traps here
}

// A Python number against a tensor, as LibTorch 1.13.1 answered at::add(t, Scalar), t.mul_(Scalar), at::pow(t,
// Scalar) and at::where(c, t, Scalar) on the same inputs (a probe program run once on libtorch-dev).
TEST(Elementwise, WrappedNumbersPromoteByCategoryAndConvertAsAStoreDoes) {
  const Tensor i8 = Tensor::from_values({1}, DType::int8, {100});
  Result<Tensor> r = binary(Op::add, i8, wrapped_number(Number::of_int(300)));  // 300 is 44 in int8: 144 wraps
  EXPECT_EQ(r.value().dtype(), DType::int8);
  EXPECT_EQ(first(r), -112);
  r = binary(Op::add, i8, wrapped_number(Number::of_int(300)), Scalar{2, true});  // 100 + 2 * 44 = 188 wraps
  EXPECT_EQ(first(r), -68);
  r = binary(Op::add, i8, wrapped_number(Number::of_float(2.5)));
  EXPECT_EQ(r.value().dtype(), DType::float32);
  EXPECT_EQ(first(r), 102.5);
  r = binary(Op::add, i8, wrapped_number(Number::of_bool(true)));
  EXPECT_EQ(r.value().dtype(), DType::int8);
  EXPECT_EQ(first(r), 101);
  r = binary(Op::add, Tensor::from_values({1}, DType::float16, {1}), wrapped_number(Number::of_float(1e10)));
  EXPECT_EQ(r.value().dtype(), DType::float16);
  EXPECT_TRUE(std::isinf(first(r)));
  r = binary(Op::mul, Tensor::from_values({1}, DType::float16, {1}), wrapped_number(Number::of_float(1e-8)));
  EXPECT_EQ(first(r), 0);  // 1e-8 is 0 in float16 before the product
  r = binary(Op::mul, Tensor::from_values({1}, DType::uint8, {5}), wrapped_number(Number::of_int(-1)));
  EXPECT_EQ(first(r), 251);
  r = binary(Op::add, Tensor::from_values({1}, DType::bool_, {1}), wrapped_number(Number::of_int(3)));
  EXPECT_EQ(r.value().dtype(), DType::int64);
  EXPECT_EQ(first(r), 4);
  r = binary(Op::add, Tensor::from_values({}, DType::int8, {3}), wrapped_number(Number::of_float(2.5)));
  EXPECT_EQ(r.value().dtype(), DType::float32);  // a 0-d int8 tensor and a float: the default float dtype
  Tensor self = i8.contiguous();
  EXPECT_EQ(error_of(binary_(Op::mul_, self, wrapped_number(Number::of_float(2.5)))),
            "result type Float can't be cast to the desired output type Char");
  self = Tensor::from_values({1}, DType::int8, {100});
  EXPECT_EQ(first(binary_(Op::mul_, self, wrapped_number(Number::of_int(3)))), 44);
  Result<Tensor> big = binary(Op::add, Tensor::zeros({1}, DType::int64), wrapped_number(Number::of_int(9007199254740993LL)));
  EXPECT_EQ(big.value().values().at(0).i, 9007199254740993LL);  // exact, never through a double
}

TEST(Elementwise, PowWithANumberExponentRefusesNegativeIntsForIntegerBases) {
  const Tensor i32 = Tensor::from_values({1}, DType::int32, {2});
  EXPECT_EQ(error_of(binary(Op::pow, i32, wrapped_number(Number::of_int(-1)))),
            "Integers to negative integer powers are not allowed.");
  EXPECT_EQ(first(binary(Op::pow, i32, Tensor::from_values({1}, DType::int64, {-1}))), 0);  // a tensor exponent is not checked
  EXPECT_EQ(binary(Op::pow, i32, wrapped_number(Number::of_float(-1.0))).value().dtype(), DType::float32);
  EXPECT_EQ(first(binary(Op::pow, Tensor::from_values({1}, DType::int32, {3}), wrapped_number(Number::of_int(2)))), 9);
  // The kernel then converts the exponent to the computation's type with c10's check (not float32 or float64).
  EXPECT_EQ(error_of(binary(Op::pow, Tensor::from_values({1}, DType::int8, {3}), wrapped_number(Number::of_int(300)))),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_of(binary(Op::pow, Tensor::from_values({1}, DType::float16, {1}), wrapped_number(Number::of_float(1e10)))),
            "value cannot be converted to type at::Half without overflow");
  EXPECT_EQ(first(binary(Op::pow, Tensor::from_values({1}, DType::float32, {1}), wrapped_number(Number::of_float(1e39)))), 1);
}

TEST(Elementwise, WhereConvertsANumberToTheResultTypeWithC10sCheck) {
  const Tensor c = Tensor::from_values({2}, DType::bool_, {1, 0});
  const Tensor i8 = Tensor::from_values({2}, DType::int8, {7, 7});
  Result<Tensor> r = where(c, i8, wrapped_number(Number::of_float(2.5)));
  EXPECT_EQ(r.value().dtype(), DType::float32);
  EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{7, 2.5}));
  r = where(c, wrapped_number(Number::of_float(2.5)), i8);
  EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{2.5, 7}));
  EXPECT_EQ(error_of(where(c, i8, wrapped_number(Number::of_int(300)))),
            "value cannot be converted to type int8_t without overflow");
  EXPECT_EQ(error_of(where(c, Tensor::from_values({2}, DType::float16, {7, 7}), wrapped_number(Number::of_float(1e10)))),
            "value cannot be converted to type at::Half without overflow");
  r = where(c, i8, wrapped_number(Number::of_bool(true)));
  EXPECT_EQ(r.value().dtype(), DType::int8);
  EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{7, 1}));
  r = where(c, wrapped_number(Number::of_float(2.5)), wrapped_number(Number::of_int(3)));
  EXPECT_EQ(r.value().dtype(), DType::float32);
  EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{2.5, 3}));
}

// floor_divide as a probe of LibTorch 1.13.1 answered (at::floor_divide on the same inputs): rounded towards -inf,
// inf // 1 is NaN, -1 // inf is -1, x // 0 is IEEE's x / 0; integers: ZeroDivisionError; no bool kernel.
TEST(Elementwise, FloorDivideFollowsLibTorch) {
  const std::vector<double> got =
      binary(Op::floor_divide, floats({7, -7, 7, -7, 1, -1, 5.5, 1, -1, INFINITY}), floats({2, 2, -2, -2, 0, 0, -0.0, INFINITY, INFINITY, 1}))
          .value()
          .to_doubles();
  const std::vector<double> want = {3, -4, -4, 3, INFINITY, -INFINITY, -INFINITY, 0, -1};
  for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(got[k], want[k]) << k;
  EXPECT_FALSE(std::signbit(got[7]));
  EXPECT_TRUE(std::isnan(got[9]));
  const Tensor q = binary(Op::floor_divide, longs({7, -7, 7, -7}), longs({2, 2, -2, -2})).value();
  EXPECT_EQ(q.dtype(), DType::int64);
  EXPECT_EQ(q.to_doubles(), (std::vector<double>{3, -4, -4, 3}));
  EXPECT_EQ(error_of(binary(Op::floor_divide, longs({7}), longs({0}))), "ZeroDivisionError");
  EXPECT_EQ(first(binary(Op::floor_divide, longs({INT64_MIN}), longs({-1}))), static_cast<double>(INT64_MIN));  // LibTorch traps
  const Tensor flags = Tensor::from_values({1}, DType::bool_, {1});
  EXPECT_EQ(error_of(binary(Op::floor_divide, flags, flags)), "\"div_floor_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(first(binary(Op::floor_divide, longs({7}), floats({2.5}))), 2);
}

// The unary ops' dtypes, messages and corner values, as LibTorch 1.13.1 gave them for the same inputs (a probe
// program run on libtorch-dev: neg/abs/sign keep int64, the others compute int64 and bool in float32).
TEST(Elementwise, UnaryDtypesFollowLibTorch) {
  const Tensor flags = Tensor::from_values({2}, DType::bool_, {1, 0});
  EXPECT_EQ(error_of(unary(Op::neg, flags)),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
            "the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(error_of(unary(Op::abs, flags)), "\"abs_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(unary(Op::sign, flags).value().dtype(), DType::bool_);
  EXPECT_EQ(unary(Op::sign, flags).value().to_doubles(), (std::vector<double>{1, 0}));
  for (Op op : {Op::sqrt, Op::exp, Op::log, Op::reciprocal}) {
    EXPECT_EQ(unary(op, flags).value().dtype(), DType::float32) << to_string(op);
    EXPECT_EQ(unary(op, longs({4})).value().dtype(), DType::float32) << to_string(op);
  }
  for (Op op : {Op::neg, Op::abs, Op::sign}) EXPECT_EQ(unary(op, longs({4})).value().dtype(), DType::int64);
  EXPECT_EQ(unary(Op::exp, floats({1})).value().dtype(), DType::float32);
  const Tensor doubles = Tensor::from_values({1}, DType::float64, {2});
  EXPECT_EQ(unary(Op::sqrt, doubles).value().dtype(), DType::float64);
}

TEST(Elementwise, UnaryIntegerExtremesWrapAndZerosKeepTheirSigns) {
  const Tensor min = Tensor::of_values({1}, DType::int64, {Value::of_int(INT64_MIN)});
  EXPECT_EQ(unary(Op::neg, min).value().values()[0].i, INT64_MIN);  // two's complement, as LibTorch's kernel
  EXPECT_EQ(unary(Op::abs, min).value().values()[0].i, INT64_MIN);
  EXPECT_EQ(unary(Op::sign, longs({-5, 0, 7})).value().to_doubles(), (std::vector<double>{-1, 0, 1}));
  const std::vector<double> r = unary(Op::reciprocal, floats({-0.0, 0.0, 4})).value().to_doubles();
  EXPECT_EQ(r[0], -INFINITY);
  EXPECT_EQ(r[1], INFINITY);
  EXPECT_EQ(r[2], 0.25);
  EXPECT_TRUE(std::signbit(unary(Op::sqrt, floats({-0.0})).value().to_doubles()[0]));
  EXPECT_TRUE(std::isnan(first(unary(Op::log, floats({-1})))));
  EXPECT_EQ(first(unary(Op::log, floats({0}))), -INFINITY);
  // sign is (0 < x) - (x < 0): NaN and -0 give +0.
  const std::vector<double> s = unary(Op::sign, floats({NAN, -0.0})).value().to_doubles();
  EXPECT_EQ(s[0], 0);
  EXPECT_FALSE(std::signbit(s[1]));
}

TEST(Elementwise, UnaryReadsThroughAView) {
  // A transposed [2, 2] view: the result is in the view's row-major order.
  const Tensor base = Tensor::from_values({2, 2}, DType::float64, {1, 4, 9, 16});
  const Tensor t = base.as_strided({2, 2}, {1, 2}, 0).value();
  EXPECT_EQ(unary(Op::sqrt, t).value().to_doubles(), (std::vector<double>{1, 3, 2, 4}));
}

TEST(Elementwise, LerpStartsFromStartForEveryWeightBelowAHalf) {
  // LibTorch 1.13: weight < 0.5 (signed) takes start + w * (end - start); 2 to -inf with w = -0.5 is +inf, not NaN.
  const Tensor start = floats({2}), end = floats({-INFINITY}), w = floats({-0.5});
  EXPECT_EQ(first(lerp(start, end, w)), INFINITY);
}

TEST(Elementwise, FloatingSemantics) {
  EXPECT_EQ(first(binary(Op::remainder, floats({-7.5}), floats({2}))), 0.5);
  EXPECT_TRUE(std::isnan(first(binary(Op::maximum, floats({NAN}), floats({1})))));
  Result<Tensor> a = binary(Op::atan2, longs({1}), longs({1}));
  EXPECT_EQ(a.value().dtype(), DType::float32);
  EXPECT_NEAR(first(a), 0.785398, 1e-6);
  EXPECT_EQ(first(binary(Op::add, floats({1}), floats({2}), {3, true})), 7);
}

TEST(Elementwise, DtypeErrorsHaveLibTorchText) {
  EXPECT_EQ(error_of(binary(Op::add, longs({1}), longs({1}), {0.5, false})),
            "For integral input tensors, argument alpha must not be a floating point number.");
  // 2.0 is refused too: LibTorch looks at the scalar's type, not its value.
  EXPECT_FALSE(binary(Op::add, longs({1}), longs({1}), {2.0, false}).ok());
  EXPECT_TRUE(binary(Op::add, longs({1}), longs({1}), {2, true}).ok());
  // LibTorch checks sub's bool operands before anything else, even before memory overlap.
  Tensor expanded_bool_self = Tensor::zeros({1, 2}, DType::bool_).expand({2, 2}).value();
  EXPECT_EQ(binary_(Op::sub, expanded_bool_self, Tensor::zeros({2}, DType::float32)).error().kind,
            ErrorKind::invalid_argument);
  const Tensor t = Tensor::from_values({1}, DType::bool_, {1});
  EXPECT_EQ(error_of(binary(Op::sub, t, t)),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
            "operator instead.");
  EXPECT_EQ(error_of(binary(Op::pow, t, t)), "\"pow\" not implemented for 'Bool'");
  EXPECT_EQ(error_of(binary(Op::fmod, t, t)), "\"fmod_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(first(binary(Op::add, t, t)), 1);
  const Tensor f = Tensor::from_values({1}, DType::bool_, {0});
  EXPECT_EQ(first(binary(Op::add, t, t, {-1, true})), 1);  // alpha -1 is true for bool: 1 + 1 = true
  EXPECT_EQ(first(binary(Op::add, f, t, {0, true})), 0);   // alpha 0 is false
  EXPECT_EQ(binary(Op::add, t, t).value().dtype(), DType::bool_);
  EXPECT_EQ(error_of(lerp(floats({1}), longs({1}), floats({1}))),
            "expected dtype float for `end` but got dtype long int");
  EXPECT_EQ(error_of(lerp(longs({1}), longs({2}), longs({0}))), "\"lerp_kernel_tensor\" not implemented for 'Long'");
  EXPECT_EQ(error_of(where(floats({1}), floats({1}), floats({2}))),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
  EXPECT_EQ(where(t, longs({1}), Tensor::from_values({1}, DType::float64, {2})).value().dtype(), DType::float64);
  // The condition's dtype is checked before the shapes broadcast (LibTorch 1.13, probed: [2] against [3]).
  EXPECT_EQ(error_of(where(longs({0, 1}), floats({1, 2, 3}), floats({4, 5, 6}))),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Long");
}

TEST(Elementwise, InPlaceRulesAreCheckedInLibTorchsOrder) {
  // An expanded self fails on overlap even when the shapes would fail too.
  Tensor expanded = Tensor::zeros({1, 3}, DType::float32).expand({2, 3}).value();
  EXPECT_EQ(binary_(Op::add, expanded, Tensor::zeros({4}, DType::float32)).error().kind,
            ErrorKind::internal_overlap);
  Tensor a = Tensor::zeros({2, 3}, DType::float32);
  EXPECT_EQ(binary_(Op::add, a, a.transpose(0, 1).value()).error().kind, ErrorKind::partial_overlap);
  Tensor l = Tensor::zeros({3}, DType::int64);
  EXPECT_EQ(binary_(Op::add, l, Tensor::zeros({4}, DType::float32)).error().kind, ErrorKind::broadcast);
  EXPECT_EQ(binary_(Op::add, l, Tensor::zeros({2, 3}, DType::float32)).error().kind, ErrorKind::inplace_shape);
  Result<Tensor> cast = binary_(Op::add, l, Tensor::zeros({3}, DType::float32));
  EXPECT_EQ(cast.error().kind, ErrorKind::dtype_cast);
  EXPECT_EQ(cast.error().message, "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(binary_(Op::eq, l, floats({0, 0, 0})).value().to_doubles(), (std::vector<double>{1, 1, 1}));
}

// In place, LibTorch checks the cast to self's dtype before it looks for a kernel: hypot_ of a bool self by an
// int64 is a cast error (as LibTorch 1.13 says), although out of place the same operands have no hypot kernel.
TEST(Elementwise, InPlaceCastIsCheckedBeforeTheKernel) {
  Tensor flags = Tensor::zeros({}, DType::bool_);
  const Tensor one = Tensor::zeros({}, DType::int64);
  const Result<Tensor> in_place = binary_(Op::hypot, flags, one);
  EXPECT_EQ(in_place.error().kind, ErrorKind::dtype_cast);
  EXPECT_EQ(in_place.error().message, "result type Long can't be cast to the desired output type Bool");
  EXPECT_EQ(binary(Op::hypot, flags, one).error().message, "\"hypot_cpu\" not implemented for 'Long'");
  Tensor also_bool = Tensor::zeros({}, DType::bool_);
  EXPECT_EQ(binary_(Op::hypot, also_bool, flags).error().message, "\"hypot_cpu\" not implemented for 'Bool'");
}

TEST(Elementwise, InPlaceWritesThroughViewsAndBumpsTheVersion) {
  Tensor base = Tensor::from_values({2, 3}, DType::float64, {0, 1, 2, 3, 4, 5});
  Tensor row = base.slice(0, 1, 2, 1).value();
  const int64_t before = base.version();
  ASSERT_TRUE(binary_(Op::mul, row, Tensor::from_values({}, DType::float64, {10})).ok());
  EXPECT_EQ(base.to_doubles(), (std::vector<double>{0, 1, 2, 30, 40, 50}));
  EXPECT_EQ(base.version(), before + 1);
  EXPECT_TRUE(binary_(Op::add, base, base).ok());  // full overlap is allowed
  EXPECT_EQ(base.to_doubles(), (std::vector<double>{0, 2, 4, 60, 80, 100}));
}

// Out-of-place: every element is the scalar op of the elements broadcasting picks, read through stride-0 views.
RC_GTEST_PROP(ElementwiseProperty, BroadcastReadsTheRightElementsWithoutCopying, ()) {
  const auto shapes = *gen::broadcastable(2);
  const Tensor a = Tensor::from_values(shapes[0], DType::int64, [&] {
    std::vector<double> v;
    for (int64_t k = 0; k < numel(shapes[0]); ++k) v.push_back(static_cast<double>(k));
    return v;
  }());
  const Tensor b = Tensor::from_values(shapes[1], DType::int64, [&] {
    std::vector<double> v;
    for (int64_t k = 0; k < numel(shapes[1]); ++k) v.push_back(static_cast<double>(1000 * k));
    return v;
  }());
  const Shape out_shape = broadcast_shapes(shapes).value();
  const Tensor ea = a.expand(out_shape).value();
  RC_ASSERT(ea.shares_storage_with(a));
  const size_t pad = out_shape.size() - shapes[0].size();
  for (size_t d = 0; d < out_shape.size(); ++d)
    if (out_shape[d] != 1 && (d < pad || shapes[0][d - pad] == 1)) RC_ASSERT(ea.strides()[d] == 0);  // stretched
  const std::vector<double> sum = binary(Op::add, a, b).value().to_doubles();
  const std::vector<double> av = ea.to_doubles(), bv = b.expand(out_shape).value().to_doubles();
  RC_ASSERT(sum.size() == av.size());
  for (size_t k = 0; k < sum.size(); ++k) RC_ASSERT(sum[k] == av[k] + bv[k]);
}

// In-place succeeds exactly when the broadcast is self's shape (no overlap, castable dtypes), and then self holds
// the out-of-place result.
RC_GTEST_PROP(ElementwiseProperty, InPlaceEqualsOutOfPlaceWhenSelfKeepsItsShape, ()) {
  const auto shapes = *gen::broadcastable(2);
  Tensor self = Tensor::from_values(shapes[0], DType::float64, std::vector<double>(static_cast<size_t>(numel(shapes[0])), 2.0));
  const Tensor other = Tensor::from_values(shapes[1], DType::float64, std::vector<double>(static_cast<size_t>(numel(shapes[1])), 3.0));
  const Result<Tensor> out = binary(Op::mul, self, other);
  const Result<Tensor> in = binary_(Op::mul, self, other);
  RC_ASSERT(in.ok() == (out.value().sizes() == shapes[0]));
  if (in.ok()) RC_ASSERT(self.to_doubles() == out.value().to_doubles());
}

// The narrow dtypes, observed on libtorch-dev 1.13.1 (corpus/dtypes.jsonl keeps the same facts as cases).
TEST(Elementwise, NarrowIntegersWrapAtTheStore) {
  const auto of = [](DType t, std::vector<double> v) {
    return Tensor::from_values({static_cast<int64_t>(v.size())}, t, v);
  };
  Result<Tensor> r = binary(Op::add, of(DType::int8, {127, -128}), of(DType::int8, {1, -1}));
  EXPECT_EQ(r.value().dtype(), DType::int8);
  EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{-128, 127}));
  EXPECT_EQ(first(binary(Op::sub, of(DType::uint8, {0}), of(DType::uint8, {1}))), 255);
  EXPECT_EQ(first(binary(Op::mul, of(DType::int16, {32767}), of(DType::int16, {2}))), -2);
  EXPECT_EQ(first(binary(Op::add, of(DType::int32, {2147483647}), of(DType::int32, {1}))), -2147483648.0);
  Result<Tensor> mixed = binary(Op::add, of(DType::uint8, {200}), of(DType::int8, {-1}));
  EXPECT_EQ(mixed.value().dtype(), DType::int16);
  EXPECT_EQ(first(mixed), 199);
  EXPECT_EQ(first(unary(Op::abs, of(DType::int8, {-128}))), -128);
  // A 0-d operand of the same category does not widen: uint8 1 + int8 -3 wraps to 254.
  Result<Tensor> zero_dim = binary(Op::add, of(DType::uint8, {1}), Tensor::from_values({}, DType::int8, {-3}));
  EXPECT_EQ(zero_dim.value().dtype(), DType::uint8);
  EXPECT_EQ(first(zero_dim), 254);
}

TEST(Elementwise, HalfPrecisionComputesInFloatAndRoundsTheResult) {
  const auto of = [](DType t, std::vector<double> v) {
    return Tensor::from_values({static_cast<int64_t>(v.size())}, t, v);
  };
  EXPECT_EQ(first(binary(Op::add, of(DType::float16, {2048}), of(DType::float16, {1}))), 2048);
  EXPECT_EQ(first(binary(Op::add, of(DType::float16, {2048}), of(DType::float16, {0.5}), Scalar{3, true})), 2050);
  EXPECT_TRUE(std::isinf(first(binary(Op::add, of(DType::float16, {65504}), of(DType::float16, {16})))));
  EXPECT_EQ(first(binary(Op::add, of(DType::float16, {65504}), of(DType::float16, {15}))), 65504);
  EXPECT_EQ(first(binary(Op::add, of(DType::bfloat16, {1}), Tensor::from_values({}, DType::float64, {0.001}))), 1);
  Result<Tensor> both = binary(Op::mul, of(DType::float16, {3}), of(DType::bfloat16, {0.5}));
  EXPECT_EQ(both.value().dtype(), DType::float32);
  EXPECT_EQ(binary(Op::mul, of(DType::int32, {3}), of(DType::float16, {0.5})).value().dtype(), DType::float16);
  EXPECT_EQ(unary(Op::sqrt, of(DType::bfloat16, {4})).value().dtype(), DType::bfloat16);
}

// LibTorch 1.13 (probed, CPU, contiguous and strided alike): float16's alpha * b is a c10::Half product, rounded
// before the sum: sub(20000, 40000, alpha=2) is -inf (80000 overflows), where one rounding would give -60000.
TEST(Elementwise, Float16AlphaTimesBRoundsBeforeTheSum) {
  const auto h = [](double v) { return Tensor::from_values({1}, DType::float16, {v}); };
  EXPECT_EQ(first(binary(Op::sub, h(20000), h(40000), Scalar{2, true})), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(first(binary(Op::add, h(-20000), h(40000), Scalar{2, true})), std::numeric_limits<double>::infinity());
  // alpha 1 changes nothing: 2048 + 1 still rounds once, to 2048.
  EXPECT_EQ(first(binary(Op::add, h(2048), h(1), Scalar{1, true})), 2048);
  // bfloat16 keeps one rounding, as LibTorch's vectorized loop (its scalar loop gives -7.0625: docs/notes/dtypes.md).
  const auto bf = [](double v) { return Tensor::from_values({1}, DType::bfloat16, {v}); };
  EXPECT_EQ(first(binary(Op::sub, bf(1), bf(1.1484375), Scalar{7, true})), -7.03125);
}

TEST(Elementwise, Float16KernelsLibTorchLacksOnCpu) {
  const Tensor h = Tensor::from_values({2}, DType::float16, {1, 2});
  EXPECT_EQ(error_of(binary(Op::atan2, h, h)), "\"atan2_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(binary(Op::hypot, h, h)), "\"hypot_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(unary(Op::sqrt, h)), "\"sqrt_vml_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(unary(Op::exp, h)), "\"exp_vml_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(unary(Op::log, h)), "\"log_vml_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(lerp(h, h, h)), "\"lerp_kernel_tensor\" not implemented for 'Half'");
  EXPECT_EQ(error_of(binary(Op::hypot, Tensor::from_values({1}, DType::int8, {1}), Tensor::from_values({1}, DType::int8, {1}))),
            "\"hypot_cpu\" not implemented for 'Char'");
  EXPECT_TRUE(binary(Op::atan2, Tensor::from_values({1}, DType::bfloat16, {1}), Tensor::from_values({1}, DType::bfloat16, {1})).ok());
  EXPECT_EQ(error_of(lerp(h, Tensor::from_values({2}, DType::float32), h)),
            "expected dtype c10::Half for `end` but got dtype float");
  Tensor i8 = Tensor::from_values({2}, DType::int8);
  EXPECT_EQ(error_of(binary_(Op::add_, i8, h)), "result type Half can't be cast to the desired output type Char");
}

}  // namespace bc

namespace bc {
namespace {

Tensor of(DType t, std::vector<double> v) { return Tensor::from_values({static_cast<int64_t>(v.size())}, t, v); }

}  // namespace

// The bitwise ops' and shifts' dtypes and messages, as LibTorch 1.13.1 gave them (a probe of at::bitwise_and ...,
// 2026-11-28): integers and bool only, the promoted dtype, the floating dtypes refused by kernel name.
TEST(Elementwise, BitwiseDtypesFollowLibTorch) {
  const Tensor flags = of(DType::bool_, {1, 0});
  EXPECT_EQ(binary(Op::bitwise_and, flags, flags).value().dtype(), DType::bool_);
  EXPECT_EQ(binary(Op::bitwise_xor, flags, flags).value().to_doubles(), (std::vector<double>{0, 0}));
  const Tensor mixed = binary(Op::bitwise_or, of(DType::uint8, {5, 200}), of(DType::int8, {5, -3})).value();
  EXPECT_EQ(mixed.dtype(), DType::int16);
  EXPECT_EQ(mixed.to_doubles(), (std::vector<double>{5, -3}));
  EXPECT_EQ(error_of(binary(Op::bitwise_and, floats({1.5}), longs({1}))), "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(error_of(binary(Op::bitwise_or, of(DType::float16, {1}), flags)), "\"bitwise_or_cpu\" not implemented for 'Half'");
  EXPECT_EQ(error_of(binary(Op::bitwise_left_shift, flags, flags)), "\"lshift_cpu\" not implemented for 'Bool'");
  EXPECT_EQ(error_of(binary(Op::bitwise_right_shift, of(DType::bfloat16, {1}), longs({1}))),
            "\"rshift_cpu\" not implemented for 'BFloat16'");
  EXPECT_EQ(first(binary(Op::bitwise_left_shift, of(DType::bool_, {1}), longs({5}))), 32);
  Tensor self = of(DType::bool_, {1});
  EXPECT_EQ(error_of(binary_(Op::bitwise_and_, self, longs({1}))),
            "result type Long can't be cast to the desired output type Bool");
  Tensor f = floats({1});
  EXPECT_EQ(error_of(binary_(Op::bitwise_and_, f, longs({1}))), "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(first(binary(Op::bitwise_and, of(DType::int8, {3}), Tensor::from_values({}, DType::int64, {257}))), 1);
}

// Shift counts outside [0, width) as LibTorch 1.13.1 shifted them (x86 takes the count modulo 32 for int8 ... int32,
// modulo 64 for int64; values probed contiguous, strided and broadcast alike).
TEST(Elementwise, ShiftCountsFollowLibTorch) {
  const std::vector<double> x = {1, -1, 5, -128, 3, 3, 3, 3, -7, -7, 100, 7, 1};
  const std::vector<double> s = {-1, -1, 7, 1, 8, 31, 63, 64, 64, 70, -100, 32, 33};
  const auto shifted = [&](Op op, DType t) { return binary(op, of(t, x), of(t, s)).value().to_doubles(); };
  EXPECT_EQ(shifted(Op::bitwise_left_shift, DType::int8), (std::vector<double>{0, 0, -128, 0, 0, 0, 0, 3, -7, 64, 0, 7, 2}));
  EXPECT_EQ(shifted(Op::bitwise_right_shift, DType::int8), (std::vector<double>{0, -1, 0, -64, 0, 0, 0, 3, -7, -1, 0, 7, 0}));
  EXPECT_EQ(shifted(Op::bitwise_left_shift, DType::int16),
            (std::vector<double>{0, 0, 640, -256, 768, 0, 0, 3, -7, -448, 0, 7, 2}));
  EXPECT_EQ(shifted(Op::bitwise_left_shift, DType::int32),
            (std::vector<double>{-2147483648.0, -2147483648.0, 640, -256, 768, -2147483648.0, -2147483648.0, 3, -7, -448,
                                 1073741824, 7, 2}));
  EXPECT_EQ(shifted(Op::bitwise_right_shift, DType::int32), (std::vector<double>{0, -1, 0, -64, 0, 0, 0, 3, -7, -1, 0, 7, 0}));
  EXPECT_EQ(shifted(Op::bitwise_right_shift, DType::int64), (std::vector<double>{0, -1, 0, -64, 0, 0, 0, 3, -7, -1, 0, 0, 0}));
  const std::vector<double> wide = shifted(Op::bitwise_left_shift, DType::int64);
  EXPECT_EQ(wide[0], -9223372036854775808.0);
  EXPECT_EQ(wide[5], 6442450944.0);
  EXPECT_EQ(wide[7], 3);
  EXPECT_EQ(wide[10], 26843545600.0);
  EXPECT_EQ(wide[11], 30064771072.0);
  const std::vector<double> bytes = binary(Op::bitwise_left_shift, of(DType::uint8, {1, 255, 3, 249, 249}),
                                           of(DType::uint8, {255, 255, 64, 64, 70})).value().to_doubles();
  EXPECT_EQ(bytes, (std::vector<double>{0, 0, 3, 249, 64}));
}

// The logical ops: any dtype, a bool result computed in the promoted dtype (a float64 1e-50 next to float32 is 0),
// in place in self's dtype; logaddexp: floating only, float16 refused, equal infinities kept (LibTorch 1.13.1).
TEST(Elementwise, LogicalOpsAndLogaddexpFollowLibTorch) {
  const Tensor r = binary(Op::logical_and, floats({1.5, 0}), longs({5, -3})).value();
  EXPECT_EQ(r.dtype(), DType::bool_);
  EXPECT_EQ(r.to_doubles(), (std::vector<double>{1, 0}));
  EXPECT_EQ(first(binary(Op::logical_and, floats({1}), Tensor::from_values({}, DType::float64, {1e-50}))), 0);
  EXPECT_EQ(first(binary(Op::logical_or, floats({NAN}), floats({0}))), 1);
  EXPECT_EQ(binary(Op::logical_xor, floats({1, 0}), floats({1, 1})).value().to_doubles(), (std::vector<double>{0, 1}));
  Tensor self = of(DType::int8, {5, 0});
  EXPECT_EQ(binary_(Op::logical_or_, self, floats({0, 0.5})).value().dtype(), DType::int8);
  EXPECT_EQ(self.to_doubles(), (std::vector<double>{1, 1}));
  EXPECT_EQ(error_of(binary(Op::logaddexp, longs({1}), longs({1}))), "\"logaddexp_cpu\" not implemented for 'Long'");
  EXPECT_EQ(error_of(binary(Op::logaddexp, of(DType::float16, {1}), of(DType::float16, {1}))),
            "\"logaddexp_cpu\" not implemented for 'Half'");
  EXPECT_EQ(binary(Op::logaddexp, longs({1}), floats({1})).value().dtype(), DType::float32);
  const std::vector<double> v =
      binary(Op::logaddexp, of(DType::float64, {1, -INFINITY, INFINITY, -INFINITY, 1e300}),
             of(DType::float64, {2, -INFINITY, INFINITY, 5, 1e300})).value().to_doubles();
  EXPECT_NEAR(v[0], 2.3132616875182228, 1e-15);
  EXPECT_EQ(v[1], -INFINITY);
  EXPECT_EQ(v[2], INFINITY);
  EXPECT_EQ(v[3], 5);
  EXPECT_NEAR(v[4], 1e300, 1e285);
}

}  // namespace bc
