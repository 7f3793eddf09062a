#include "oracles/torch_errors.h"

#include <gtest/gtest.h>

#include "engine/error_texts.h"

namespace bc {

// Each message is one LibTorch 1.13 printed (libtorch-dev 1.13.1) for a shape error.
TEST(TorchErrors, ClassifiesEachKnownMessage) {
  EXPECT_EQ(classify_torch_message(Family::elementwise,
                                   "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
            ErrorKind::broadcast);
  EXPECT_EQ(classify_torch_message(Family::inplace, "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]"),
            ErrorKind::inplace_shape);
  EXPECT_EQ(classify_torch_message(Family::expand, "The expanded size of the tensor (4) must match the existing size (3) at "
                                             "non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]"),
            ErrorKind::expand);
  EXPECT_EQ(classify_torch_message(Family::expand, "expand(CPUFloatType{[3, 1]}, size=[2]): the number of sizes provided (1) "
                                             "must be greater or equal to the number of dimensions in the tensor (2)"),
            ErrorKind::expand);
  EXPECT_EQ(classify_torch_message(Family::matmul, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
            ErrorKind::matmul_shape);
  EXPECT_EQ(classify_torch_message(Family::matmul, "size mismatch, got 2, 2x3,4"), ErrorKind::matmul_shape);
  EXPECT_EQ(classify_torch_message(Family::matmul, "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
            ErrorKind::matmul_shape);
  EXPECT_EQ(classify_torch_message(Family::expand, "numel: integer multiplication overflow"), ErrorKind::invalid_argument);
}

TEST(TorchErrors, SumToFailuresAreSumToAndTheRestIsOther) {
  EXPECT_EQ(classify_torch_message(Family::sum_to, "shape '[4]' is invalid for input of size 3"), ErrorKind::sum_to);
  EXPECT_EQ(classify_torch_message(Family::elementwise, "shape '[4]' is invalid for input of size 3"), ErrorKind::other);
  // A broadcast message inside matmul is still a broadcast error (batch dims).
  EXPECT_EQ(classify_torch_message(Family::matmul,
                                   "The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0"),
            ErrorKind::broadcast);
}

}  // namespace bc

namespace bc {

// Value-level messages observed on libtorch-dev 1.13.1 (in-place rules, dtypes, integer corner cases).
TEST(TorchErrors, ClassifiesTheValueLevelMessages) {
  EXPECT_EQ(classify_torch_message(Family::inplace, "unsupported operation: more than one element of the written-to tensor "
                                              "refers to a single memory location. Please clone() the tensor before "
                                              "performing the operation."),
            ErrorKind::internal_overlap);
  EXPECT_EQ(classify_torch_message(Family::inplace, "unsupported operation: some elements of the input tensor and the "
                                              "written-to tensor refer to a single memory location. Please clone() "
                                              "the tensor before performing the operation."),
            ErrorKind::partial_overlap);
  EXPECT_EQ(classify_torch_message(Family::inplace, "result type Float can't be cast to the desired output type Long"),
            ErrorKind::dtype_cast);
  EXPECT_EQ(classify_torch_message(Family::elementwise, "ZeroDivisionError"), ErrorKind::invalid_argument);
  EXPECT_EQ(classify_torch_message(Family::elementwise, "\"fmod_cpu\" not implemented for 'Bool'"),
            ErrorKind::invalid_argument);
  EXPECT_EQ(classify_torch_message(Family::inplace, "a leaf Variable that requires grad is being used in an in-place "
                                              "operation."),
            ErrorKind::leaf_inplace);
}

}  // namespace bc

namespace bc {

namespace {

// Every engine template, filled with placeholder values (the classifier reads only the fixed leading text).
std::string filled(const ErrorTemplate& t) {
  return format_error_text(t.id, std::vector<TextArg>(hole_names(t).size(), TextArg("2")));
}

}  // namespace

TEST(TorchErrors, ClassifiesEachTemplatesMessageAsItsKind) {
  for (const ErrorTemplate& t : error_templates()) {
    // Unclassified templates keep LibTorch's fallback: other, or sum_to in the sum_to family.
    const ErrorKind elementwise = t.classified ? t.kind : ErrorKind::other;
    const ErrorKind sum_to = t.classified ? t.kind : ErrorKind::sum_to;
    EXPECT_EQ(classify_torch_message(Family::elementwise, filled(t)), elementwise) << t.name << ": " << filled(t);
    EXPECT_EQ(classify_torch_message(Family::sum_to, filled(t)), sum_to) << t.name << ": " << filled(t);
  }
}

TEST(TorchErrors, NoPatternShadowsAnotherOfADifferentKind) {
  const auto& patterns = torch_message_patterns();
  for (const auto& [a, kind_a] : patterns)
    for (const auto& [b, kind_b] : patterns)
      if (a.rfind(b, 0) == 0) {
        EXPECT_EQ(kind_a, kind_b) << "\"" << b << "\" also matches \"" << a << "\"";
      }
}

}  // namespace bc
