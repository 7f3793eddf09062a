// addcmul and addcdiv on tensors: values worked out by hand, and the outcomes, dtypes and texts LibTorch 1.13 gives
// for the same inputs (probed on libtorch-dev 1.13.1).
#include "engine/addcmul.h"

#include <gtest/gtest.h>

#include "engine/elementwise.h"

namespace bc {
namespace {

Tensor t(const Shape& shape, std::vector<double> v, DType d = DType::float32) { return Tensor::from_values(shape, d, v); }
std::string error_of(const Result<Tensor>& r) { return r.ok() ? "(ok)" : r.error().message; }

}  // namespace

TEST(Addcmul, AllThreeBroadcastTogether) {
  // c [2, 1], a [3], b [] -> [2, 3]: c + value * a * b.
  const Result<Tensor> r = addc(AddcOp::addcmul, t({2, 1}, {1, 10}), t({3}, {1, 2, 3}), t({}, {2}), {0.5, false});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().sizes(), (Shape{2, 3}));
  EXPECT_EQ(r.value().to_doubles(), (std::vector<double>{2, 3, 4, 11, 12, 13}));
  const Result<Tensor> d = addc(AddcOp::addcdiv, t({1}, {1}), t({2}, {3, 6}), t({2}, {2, 4}), {2, true});
  EXPECT_EQ(d.value().to_doubles(), (std::vector<double>{4, 4}));  // 1 + 2 * 3 / 2, 1 + 2 * 6 / 4
}

TEST(Addcmul, BroadcastErrorFoldsLeftToRight) {
  // LibTorch: "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0".
  EXPECT_EQ(error_of(addc(AddcOp::addcmul, t({2, 3}, {}), t({4, 1}, {}), t({3}, {}))),
            "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0");
}

TEST(Addcmul, IntegerComputationTruncatesAFractionalValue) {
  const Tensor three = t({2}, {3, 3}, DType::int64);
  EXPECT_EQ(addc(AddcOp::addcmul, three, three, three, {0.5, false}).value().to_doubles(), (std::vector<double>{3, 3}));
  EXPECT_EQ(addc(AddcOp::addcmul, three, three, three, {2.5, false}).value().to_doubles(), (std::vector<double>{21, 21}));
  EXPECT_EQ(addc(AddcOp::addcmul, three, three, three, {-0.5, false}).value().to_doubles(), (std::vector<double>{3, 3}));
  // ...where the unfused form refuses the float alpha.
  EXPECT_FALSE(binary(Op::add, three, three, {0.5, false}).ok());
}

TEST(Addcmul, DtypeRules) {
  const Tensor i = t({2}, {3, 3}, DType::int64), f = t({2}, {2, 2}), b = t({2}, {1, 1}, DType::bool_);
  EXPECT_EQ(error_of(addc(AddcOp::addcdiv, i, i, i)).rfind("Integer division with addcdiv is no longer supported", 0), 0u);
  EXPECT_FALSE(addc(AddcOp::addcdiv, f, i, b).ok());  // bool counts as an integer type
  EXPECT_EQ(addc(AddcOp::addcdiv, i, f, f).value().dtype(), DType::float32);
  EXPECT_EQ(error_of(addc(AddcOp::addcmul, b, b, b)), "\"addcmul_cpu_out\" not implemented for 'Bool'");
  EXPECT_EQ(addc(AddcOp::addcmul, f, i, t({2}, {1.5, 1.5}, DType::float64)).value().dtype(), DType::float64);
  // 0-d operands promote only across categories: an int64 c with a 0-d float64 and a 0-d bool gives float64.
  EXPECT_EQ(addc(AddcOp::addcmul, i, t({}, {1.5}, DType::float64), t({}, {1}, DType::bool_)).value().dtype(),
            DType::float64);
}

TEST(Addcmul, InPlaceRulesInLibTorchsOrder) {
  Tensor narrow = t({3}, {0, 0, 0});
  EXPECT_EQ(error_of(addc_(AddcOp::addcmul, narrow, t({2, 3}, {}), t({3}, {}))),
            "output with shape [3] doesn't match the broadcast shape [2, 3]");
  Tensor ints = t({3}, {1, 1, 1}, DType::int64);
  EXPECT_EQ(error_of(addc_(AddcOp::addcmul, ints, t({3}, {}), t({3}, {}))),
            "result type Float can't be cast to the desired output type Long");
  Tensor expanded = t({1}, {0}).expand({3}).value();
  EXPECT_EQ(addc_(AddcOp::addcmul, expanded, t({3}, {}), t({3}, {})).error().kind, ErrorKind::internal_overlap);
  // addcdiv's integer check comes before everything, the in-place shape rule included.
  EXPECT_EQ(error_of(addc_(AddcOp::addcdiv, narrow, t({2, 3}, {}, DType::int64), t({3}, {}, DType::int64)))
                .rfind("Integer division", 0),
            0u);
}

TEST(Addcmul, InPlaceWritesSelfAndCastsWhereAllowed) {
  Tensor self = t({2}, {1, 2});
  const int64_t before = self.version();
  // float64 may be cast to float32 (LibTorch's kernel asserts here instead: torch-addcmul-inplace-cast-assert).
  ASSERT_TRUE(addc_(AddcOp::addcmul, self, t({2}, {2, 3}), t({2}, {0.5, 0.5}, DType::float64), {2, true}).ok());
  EXPECT_EQ(self.to_doubles(), (std::vector<double>{3, 5}));  // computed in float64, stored as float32
  EXPECT_EQ(self.dtype(), DType::float32);
  EXPECT_EQ(self.version(), before + 1);
}

// An integer self narrower than the result computes and wraps as add_ would (LibTorch asserts and NumPy refuses,
// each declared); a value out of the compute type's range is refused as c10 does.
TEST(Addcmul, NarrowIntegerSelfWrapsAndValueIsRangeChecked) {
  Tensor self = t({1}, {250}, DType::uint8);
  ASSERT_TRUE(addc_(AddcOp::addcmul, self, t({1}, {3}, DType::int64), t({1}, {4}, DType::int64), {1, true}).ok());
  EXPECT_EQ(self.to_doubles(), (std::vector<double>{6}));  // 250 + 12 = 262 wraps to 6
  const Tensor u = t({1}, {1}, DType::uint8);
  EXPECT_EQ(error_of(addc(AddcOp::addcmul, u, u, u, {-1, false})),
            "value cannot be converted to type uint8_t without overflow");
  EXPECT_EQ(addc(AddcOp::addcmul, u, u, u, {-1, true}).value().to_doubles(), (std::vector<double>{0}));  // 1 + 255
}

}  // namespace bc
