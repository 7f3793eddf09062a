#include "engine/tensor.h"

#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

namespace bc {

TEST(Tensor, ValuesAreStoredInTheirDtype) {
  EXPECT_EQ(Tensor::from_values({3}, DType::int64, {1.9, -1.9, 3}).to_doubles(), (std::vector<double>{1, -1, 3}));
  EXPECT_EQ(Tensor::from_values({2}, DType::bool_, {0, -2}).to_doubles(), (std::vector<double>{0, 1}));
  EXPECT_EQ(Tensor::from_values({1}, DType::float32, {0.1}).to_doubles()[0], static_cast<double>(0.1f));
  EXPECT_EQ(Tensor::from_values({1}, DType::float64, {0.1}).to_doubles()[0], 0.1);
  EXPECT_EQ(Tensor::from_values({1}, DType::int64, {NAN}).to_doubles()[0], static_cast<double>(INT64_MIN));
  EXPECT_EQ(Tensor::zeros({}, DType::float32).numel(), 1);
  EXPECT_EQ(Tensor::zeros({2, 0}, DType::float32).to_doubles().size(), 0u);
}

TEST(Tensor, ViewsShareStorageAndCopyNothing) {
  Tensor t = Tensor::from_values({2, 3}, DType::float64, {0, 1, 2, 3, 4, 5});
  Tensor tr = t.transpose(0, 1).value();
  EXPECT_EQ(tr.sizes(), (Shape{3, 2}));
  EXPECT_EQ(tr.strides(), (Shape{1, 3}));
  EXPECT_TRUE(tr.shares_storage_with(t));
  EXPECT_EQ(tr.to_doubles(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  Tensor col = t.slice(1, 0, 3, 2).value();  // columns 0 and 2
  EXPECT_EQ(col.to_doubles(), (std::vector<double>{0, 2, 3, 5}));
  EXPECT_EQ(col.strides(), (Shape{3, 2}));
  Tensor ex = Tensor::from_values({3}, DType::float64, {7, 8, 9}).expand({2, 3}).value();
  EXPECT_EQ(ex.strides(), (Shape{0, 1}));
  EXPECT_EQ(ex.to_doubles(), (std::vector<double>{7, 8, 9, 7, 8, 9}));
  Tensor fold = t.as_strided({2, 2}, {1, 1}, 1).value();  // overlapping on purpose
  EXPECT_EQ(fold.to_doubles(), (std::vector<double>{1, 2, 2, 3}));
  EXPECT_FALSE(t.as_strided({2, 2}, {3, 3}, 0).ok());  // reaches past the storage
}

TEST(Tensor, ContiguousCopiesOnlyWhenNeeded) {
  Tensor t = Tensor::from_values({2, 3}, DType::int64, {0, 1, 2, 3, 4, 5});
  EXPECT_TRUE(t.contiguous().shares_storage_with(t));
  Tensor c = t.transpose(0, 1).value().contiguous();
  EXPECT_FALSE(c.shares_storage_with(t));
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(c.to_doubles(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

// A float stored into a narrow integer goes through int32 and keeps the low bits (probed on libtorch-dev 1.13.1
// with Tensor::to: 300.0 -> int8 44, 1e10 -> int8 0, -1.5 -> uint8 255, NaN -> uint8 0, 70000.0 -> int16 4464).
TEST(Tensor, NarrowIntegerStoresWrap) {
  EXPECT_EQ(convert(Value::of_float(300), DType::int8).i, 44);
  EXPECT_EQ(convert(Value::of_float(1e10), DType::int8).i, 0);
  EXPECT_EQ(convert(Value::of_float(-1.5), DType::uint8).i, 255);
  EXPECT_EQ(convert(Value::of_float(std::nan("")), DType::uint8).i, 0);
  EXPECT_EQ(convert(Value::of_float(70000), DType::int16).i, 4464);
  EXPECT_EQ(convert(Value::of_float(1e10), DType::int32).i, INT32_MIN);
  EXPECT_EQ(convert(Value::of_int(128), DType::int8).i, -128);
  EXPECT_EQ(convert(Value::of_int(-1), DType::uint8).i, 255);
  EXPECT_EQ(convert(Value::of_int(INT64_MIN), DType::int32).i, 0);
  EXPECT_EQ(convert(Value::of_int(65535), DType::int16).i, -1);
  const Tensor t = Tensor::from_values({2}, DType::float16, {0.1, 70000});
  EXPECT_EQ(t.to_doubles()[0], 0.0999755859375);
  EXPECT_TRUE(std::isinf(t.to_doubles()[1]));
}

}  // namespace bc
