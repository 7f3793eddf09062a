#include "engine/tensor.h"

#include <cmath>

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

}  // namespace bc
