#include "engine/error_texts.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>

namespace bc {
namespace {

// One filled template and the literal it must give. The libtorch texts are LibTorch 1.13's messages as the tests
// and the corpus recorded them (libtorch-dev 1.13.1); the engine texts are the engine's own words.
struct Sample {
  ErrorText id;
  std::string text;
  std::string expected;
};

std::vector<Sample> samples() {
  using E = ErrorText;
  const std::string hint = " Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
                           "with torch.autograd.set_detect_anomaly(True).";
  const Shape s13{1, 3, 1}, s337{3, 3, 7}, s31{3, 1}, s2{2}, s24{2, 4}, s23{2, 3}, s3{3}, s4{4}, none{};
  return {
      {E::broadcast_mismatch, format_error_text(E::broadcast_mismatch, {3, 4, 1}),
       "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
      {E::inplace_broadcast, format_error_text(E::inplace_broadcast, {s13, s337}),
       "output with shape [1, 3, 1] doesn't match the broadcast shape [3, 3, 7]"},
      {E::expand_too_few_sizes, format_error_text(E::expand_too_few_sizes, {"CPUFloatType", s31, s2, 1, 2}),
       "expand(CPUFloatType{[3, 1]}, size=[2]): the number of sizes provided (1) must be greater or equal to the "
       "number of dimensions in the tensor (2)"},
      {E::expand_negative_leading, format_error_text(E::expand_negative_leading, {-1, 0}),
       "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"},
      {E::expand_mismatch, format_error_text(E::expand_mismatch, {4, 3, 1, s24, s23}),
       "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target "
       "sizes: [2, 4].  Tensor sizes: [2, 3]"},
      {E::numel_overflow, format_error_text(E::numel_overflow), "numel: integer multiplication overflow"},
      {E::negative_dimension, format_error_text(E::negative_dimension, {-1, Shape{2, -1}}),
       "Trying to create tensor with negative dimension -1: [2, -1]"},
      {E::sum_to_not_expandable, format_error_text(E::sum_to_not_expandable, {s4, s3}),
       "sum_to: shape [4] is not expandable to the size [3] of the tensor being summed"},
      {E::sum_to_not_floating, format_error_text(E::sum_to_not_floating, {"int64"}),
       "sum_to: a gradient is float32 or float64, not int64"},
      {E::internal_overlap, format_error_text(E::internal_overlap),
       "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
       "Please clone() the tensor before performing the operation."},
      {E::partial_overlap, format_error_text(E::partial_overlap),
       "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory "
       "location. Please clone() the tensor before performing the operation."},
      {E::cast, format_error_text(E::cast, {"Float", "Long"}),
       "result type Float can't be cast to the desired output type Long"},
      {E::bad_inplace_dtype, format_error_text(E::bad_inplace_dtype, {"double", "float"}),
       "Bad in-place call: input tensor dtype double and output tensor dtype float should match"},
      {E::bad_inplace_size, format_error_text(E::bad_inplace_size, {s3, s23}),
       "Bad in-place call: input tensor size [3] and output tensor size [2, 3] should match"},
      {E::not_implemented, format_error_text(E::not_implemented, {"fmod_cpu", "Bool"}),
       "\"fmod_cpu\" not implemented for 'Bool'"},
      {E::zero_division, format_error_text(E::zero_division), "ZeroDivisionError"},
      {E::integral_scalar, format_error_text(E::integral_scalar, {"beta"}),
       "For integral input tensors, argument beta must not be a floating point number."},
      {E::sub_two_bools, format_error_text(E::sub_two_bools),
       "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
       "operator instead."},
      {E::sub_bool, format_error_text(E::sub_bool),
       "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use "
       "the `~` or `logical_not()` operator instead."},
      {E::addcdiv_integer, format_error_text(E::addcdiv_integer),
       "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
       "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
       "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
       "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * "
       "tensor1 / tensor2), for all dtypes."},
      {E::lerp_dtype, format_error_text(E::lerp_dtype, {"float", "weight", "long int"}),
       "expected dtype float for `weight` but got dtype long int"},
      {E::where_condition, format_error_text(E::where_condition, {"Float"}),
       "where expected condition to be a boolean tensor, but got a tensor with dtype Float"},
      {E::norm_dtype, format_error_text(E::norm_dtype, {"Long"}),
       "norm(): input dtype should be either floating point or complex. Got Long instead."},
      {E::neg_bool, format_error_text(E::neg_bool),  // LibTorch 1.13.1's at::neg on a bool tensor
       "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
       "`~` or `logical_not()` operator instead."},
      {E::no_dimensions, format_error_text(E::no_dimensions, {0}),
       "Dimension specified as 0 but tensor has no dimensions"},
      {E::dim_out_of_range, format_error_text(E::dim_out_of_range, {-2, 1, 2}),
       "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
      {E::matmul_zero_dim, format_error_text(E::matmul_zero_dim, {0, 1}),
       "both arguments to matmul need to be at least 1D, but they are 0D and 1D"},
      {E::mm_sizes, format_error_text(E::mm_sizes, {2, 3, 4, 5}), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
      {E::mv_sizes, format_error_text(E::mv_sizes, {2, 2, 3, 4}), "size mismatch, got 2, 2x3,4"},
      {E::dot_sizes, format_error_text(E::dot_sizes, {3, 4}),
       "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 "
       "elements respectively"},
      {E::bmm_sizes, format_error_text(E::bmm_sizes, {2, 3, 1, 3}),
       "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [1, 3]."},
      {E::self_not_matrix, format_error_text(E::self_not_matrix), "self must be a matrix"},
      {E::mat2_not_matrix, format_error_text(E::mat2_not_matrix), "mat2 must be a matrix"},
      {E::mat1_rank, format_error_text(E::mat1_rank, {1}), "mat1 must be a matrix, got 1-D tensor"},
      {E::mat2_rank, format_error_text(E::mat2_rank, {3}), "mat2 must be a matrix, got 3-D tensor"},
      {E::batch1_not_3d, format_error_text(E::batch1_not_3d), "batch1 must be a 3D tensor"},
      {E::batch2_not_3d, format_error_text(E::batch2_not_3d), "batch2 must be a 3D tensor"},
      {E::mv_ranks, format_error_text(E::mv_ranks, {1, 2, 2}), "vector + matrix @ vector expected, got 1, 2, 2"},
      {E::dot_ranks, format_error_text(E::dot_ranks, {2, 1}), "1D tensors expected, but got 2D and 1D tensors"},
      {E::outer_rank, format_error_text(E::outer_rank, {"vec2", 0}), "outer: Expected 1-D argument vec2, but got 0-D"},
      {E::addr_rank, format_error_text(E::addr_rank, {"vec1", 2}), "addr: Expected 1-D argument vec1, but got 2-D"},
      {E::addr_input_rank, format_error_text(E::addr_input_rank, {1}), "2D tensor expected, got 1D tensor for input"},
      {E::addr_input_size, format_error_text(E::addr_input_size, {Shape{1, 3}, s2, s3}),
       "size mismatch, input: [1, 3], v1: [2], v2: [3]"},
      {E::batch_counts, format_error_text(E::batch_counts, {2, 3}),
       "batch1 and batch2 must have same number of batches, got 2 and 3"},
      {E::addbmm_sizes, format_error_text(E::addbmm_sizes, {2, 4, 5, 3}), "Incompatible matrix sizes for bmm (2x4 and 5x3)"},
      {E::scalar_type, format_error_text(E::scalar_type, {"Float", "Double"}), "expected scalar type Float but found Double"},
      {E::dot_dtypes, format_error_text(E::dot_dtypes, {"Float", "Double"}),
       "dot : expected both vectors to have same dtype, but found Float and Double"},
      {E::self_mat2_dtype, format_error_text(E::self_mat2_dtype), "self and mat2 must have the same dtype"},
      {E::mat1_mat2_dtype, format_error_text(E::mat1_mat2_dtype), "mat1 and mat2 must have the same dtype"},
      {E::not_fused, format_error_text(E::not_fused, {"mm"}), "mm is not a fused product"},
      {E::not_strict, format_error_text(E::not_strict, {"addmm"}),
       "addmm is not a strict product (matmul: engine/autograd_products.h)"},
      {E::requires_grad_dtype, format_error_text(E::requires_grad_dtype),
       "Only Tensors of floating point and complex dtype can require gradients"},
      {E::backward_no_grad, format_error_text(E::backward_no_grad),
       "element 0 of tensors does not require grad and does not have a grad_fn"},
      {E::leaf_inplace, format_error_text(E::leaf_inplace),
       "a leaf Variable that requires grad is being used in an in-place operation."},
      {E::leaf_view_inplace, format_error_text(E::leaf_view_inplace),
       "a view of a leaf Variable that requires grad is being used in an in-place operation."},
      {E::version_counter, format_error_text(E::version_counter, {"CPUFloatType", s3, 1, 0}),
       "one of the variables needed for gradient computation has been modified by an inplace operation: "
       "[CPUFloatType [3]] is at version 1; expected version 0 instead." + hint},
      {E::version_counter_output, format_error_text(E::version_counter_output, {"CPUFloatType", s3, "PowBackward1", 1, 0}),
       "one of the variables needed for gradient computation has been modified by an inplace operation: "
       "[CPUFloatType [3]], which is output 0 of PowBackward1, is at version 1; expected version 0 instead." + hint},
      {E::invalid_gradient, format_error_text(E::invalid_gradient, {"MulBackward0", 1, s4, s3}),
       "Function MulBackward0 returned an invalid gradient at index 1 - got [4] but expected shape compatible with [3]"},
      {E::view_of_storage, format_error_text(E::view_of_storage),
       "view_of: the view must look into the base's contiguous storage"},
      {E::permute_count, format_error_text(E::permute_count, {2, 3}), "permute: the order names 2 dims for a tensor of 3"},
      {E::permute_repeat, format_error_text(E::permute_repeat), "permute: the order must name each dim once"},
      {E::transpose_dim, format_error_text(E::transpose_dim), "transpose: dim out of range"},
      {E::slice_dim, format_error_text(E::slice_dim), "slice: dim out of range"},
      {E::slice_step, format_error_text(E::slice_step), "slice step must be positive"},
      {E::strides_length, format_error_text(E::strides_length), "mismatch in length of strides and shape"},
      {E::negative_strides, format_error_text(E::negative_strides),
       "as_strided: Negative strides are not supported at the moment"},
      {E::view_outside_storage, format_error_text(E::view_outside_storage),
       "as_strided: the view reaches outside the storage"},
      {E::reshape_numel, format_error_text(E::reshape_numel, {s4, 3}), "shape '[4]' is invalid for input of size 3"},
      {E::scalar_overflow, format_error_text(E::scalar_overflow, {"uint8_t"}),
       "value cannot be converted to type uint8_t without overflow"},
      // Probed: LibTorch 1.13, at::pow(int32 tensor, -1) (pow(Tensor, Scalar)'s check).
      {E::pow_negative_integer, format_error_text(E::pow_negative_integer),
       "Integers to negative integer powers are not allowed."},
      // Probed: LibTorch 1.13, floor_divide(a, b).sum().backward() with a requiring grad.
      {E::derivative_not_implemented, format_error_text(E::derivative_not_implemented, {"aten::floor_divide"}),
       "derivative for aten::floor_divide is not implemented"},
      // Probed: at::mul_out(out, a, b) with a requiring grad; at::add_out into a [2] out for a [3] result.
      {E::out_autograd, format_error_text(E::out_autograd, {"mul"}),
       "mul(): functions with out=... arguments don't support automatic differentiation, but one of the arguments "
       "requires grad."},
      {E::out_resized, format_error_text(E::out_resized, {Shape{2}, Shape{3}}),
       "An output with one or more elements was resized since it had shape [2], which does not match the required "
       "output shape [3]. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
       "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
       "elements with t.resize_(0)."},
      {E::dim_repeated, format_error_text(E::dim_repeated, {0}), "dim 0 appears multiple times in the list of dims"},
      {E::amax_zero_size, format_error_text(E::amax_zero_size, {-2}),
       "amax(): Expected reduction dim -2 to have non-zero size."},
      {E::amin_zero_size, format_error_text(E::amin_zero_size, {1}),
       "amin(): Expected reduction dim 1 to have non-zero size."},
      {E::amax_zero_numel, format_error_text(E::amax_zero_numel),
       "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
       "'dim' argument."},
      {E::amin_zero_numel, format_error_text(E::amin_zero_numel),
       "amin(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
       "'dim' argument."},
      {E::mean_input_dtype, format_error_text(E::mean_input_dtype, {"Long"}),
       "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long"},
      {E::mean_dtype_arg, format_error_text(E::mean_dtype_arg, {"Bool"}),
       "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. Got: "
       "Bool"},
  };
}

TEST(ErrorTexts, EachTemplateGivesLibTorchsLiteral) {
  std::set<ErrorText> seen;
  for (const Sample& s : samples()) {
    EXPECT_EQ(s.text, s.expected) << error_template(s.id).name;
    seen.insert(s.id);
  }
  EXPECT_EQ(seen.size(), error_templates().size()) << "every template needs a sample";
}

TEST(ErrorTexts, TableIsInEnumOrderWithUniqueNames) {
  std::set<std::string> names;
  for (size_t k = 0; k < error_templates().size(); ++k) {
    const ErrorTemplate& t = error_templates()[k];
    EXPECT_EQ(static_cast<size_t>(t.id), k) << t.name;
    EXPECT_TRUE(names.insert(t.name).second) << t.name;
    // A classified template must start with fixed text, or its prefix would match every message.
    if (t.classified) {
      EXPECT_FALSE(fixed_prefix(t).empty()) << t.name;
      EXPECT_EQ(t.origin, Origin::libtorch) << t.name;
    }
  }
}

TEST(ErrorTexts, HolesFillInOrderOfFirstAppearanceAndBracesStayLiteral) {
  EXPECT_EQ(make_error(ErrorText::dot_sizes, {2, 5}),
            (Error{ErrorKind::matmul_shape, "inconsistent tensor size, expected tensor [2] and src [5] to have the same "
                                            "number of elements, but got 2 and 5 elements respectively"}));
  EXPECT_EQ(fixed_prefix(error_template(ErrorText::expand_too_few_sizes)), "expand(");
  EXPECT_EQ(fixed_prefix(error_template(ErrorText::leaf_inplace)), error_template(ErrorText::leaf_inplace).text);
  EXPECT_THROW(format_error_text(ErrorText::mm_sizes, {1, 2}), std::logic_error);
  EXPECT_THROW(format_error_text(ErrorText::zero_division, {1}), std::logic_error);
}

// Each template's kind, written here by hand from what the message says and from ErrorKind's definitions
// (engine/error.h), not read from the table: the LibTorch oracle classifies LibTorch's messages with the table's own
// kinds (oracles/torch_errors.cpp), so a wrong kind there would otherwise agree with itself everywhere.
const std::map<std::string, ErrorKind>& pinned_kinds() {
  using K = ErrorKind;
  static const std::map<std::string, ErrorKind> kinds = {
      // Shapes that do not broadcast, expand or sum back.
      {"broadcast_mismatch", K::broadcast},
      {"inplace_broadcast", K::inplace_shape},
      {"bad_inplace_size", K::inplace_shape},
      {"addr_input_rank", K::inplace_shape},  // addr_'s self must stay a matrix
      {"addr_input_size", K::inplace_shape},  // and keep its size
      {"expand_too_few_sizes", K::expand},
      {"expand_negative_leading", K::expand},
      {"expand_mismatch", K::expand},
      {"sum_to_not_expandable", K::sum_to},
      // Products whose operands' ranks or sizes do not fit.
      {"matmul_zero_dim", K::matmul_shape},
      {"mm_sizes", K::matmul_shape},
      {"mv_sizes", K::matmul_shape},
      {"dot_sizes", K::matmul_shape},
      {"bmm_sizes", K::matmul_shape},
      {"self_not_matrix", K::matmul_shape},
      {"mat2_not_matrix", K::matmul_shape},
      {"mat1_rank", K::matmul_shape},
      {"mat2_rank", K::matmul_shape},
      {"batch1_not_3d", K::matmul_shape},
      {"batch2_not_3d", K::matmul_shape},
      {"mv_ranks", K::matmul_shape},
      {"dot_ranks", K::matmul_shape},
      {"outer_rank", K::matmul_shape},
      {"addr_rank", K::matmul_shape},
      {"batch_counts", K::matmul_shape},
      {"addbmm_sizes", K::matmul_shape},
      // Products given operands of several dtypes.
      {"scalar_type", K::dtype_mismatch},
      {"dot_dtypes", K::dtype_mismatch},
      {"self_mat2_dtype", K::dtype_mismatch},
      {"mat1_mat2_dtype", K::dtype_mismatch},
      // The in-place rules: overlap, then the cast to self's dtype.
      {"internal_overlap", K::internal_overlap},
      {"partial_overlap", K::partial_overlap},
      {"cast", K::dtype_cast},
      {"bad_inplace_dtype", K::dtype_cast},
      // Autograd's in-place rules.
      {"leaf_inplace", K::leaf_inplace},
      {"leaf_view_inplace", K::leaf_inplace},
      {"version_counter", K::version_counter},
      {"version_counter_output", K::version_counter},
      // Malformed arguments: sizes, dims, dtypes an op does not take, views the engine cannot build.
      {"numel_overflow", K::invalid_argument},
      {"negative_dimension", K::invalid_argument},
      {"sum_to_not_floating", K::invalid_argument},
      {"not_implemented", K::invalid_argument},
      {"zero_division", K::invalid_argument},
      {"integral_scalar", K::invalid_argument},
      {"sub_two_bools", K::invalid_argument},
      {"sub_bool", K::invalid_argument},
      {"addcdiv_integer", K::invalid_argument},
      {"lerp_dtype", K::invalid_argument},
      {"where_condition", K::invalid_argument},
      {"norm_dtype", K::invalid_argument},
      {"neg_bool", K::invalid_argument},
      {"no_dimensions", K::invalid_argument},
      {"dim_out_of_range", K::invalid_argument},
      {"not_fused", K::invalid_argument},
      {"not_strict", K::invalid_argument},
      {"requires_grad_dtype", K::invalid_argument},
      {"backward_no_grad", K::invalid_argument},
      {"view_of_storage", K::invalid_argument},
      {"permute_count", K::invalid_argument},
      {"permute_repeat", K::invalid_argument},
      {"transpose_dim", K::invalid_argument},
      {"slice_dim", K::invalid_argument},
      {"slice_step", K::invalid_argument},
      {"strides_length", K::invalid_argument},
      {"negative_strides", K::invalid_argument},
      {"view_outside_storage", K::invalid_argument},
      {"reshape_numel", K::invalid_argument},
      {"derivative_not_implemented", K::invalid_argument},
      {"dim_repeated", K::invalid_argument},
      {"amax_zero_size", K::invalid_argument},
      {"amin_zero_size", K::invalid_argument},
      {"amax_zero_numel", K::invalid_argument},
      {"amin_zero_numel", K::invalid_argument},
      {"mean_input_dtype", K::invalid_argument},
      {"mean_dtype_arg", K::invalid_argument},
      // An argument's value refused (pow(Tensor, Scalar) with a negative int for an integer base), as NumPy's
      // adapter reads NumPy's own text of it.
      {"pow_negative_integer", K::invalid_argument},
      // No kind of its own: a backward function's bad gradient, c10's checked conversion, out='s autograd refusal
      // and out's resize warning.
      {"invalid_gradient", K::other},
      {"scalar_overflow", K::other},
      {"out_autograd", K::other},
      {"out_resized", K::other},
  };
  return kinds;
}

TEST(ErrorTexts, EachTemplatesKindIsTheOnePinnedByHand) {
  std::set<std::string> seen;
  for (const ErrorTemplate& t : error_templates()) {
    seen.insert(t.name);
    const auto it = pinned_kinds().find(t.name);
    ASSERT_NE(it, pinned_kinds().end()) << t.name << ": a new template; pin its kind in pinned_kinds()";
    EXPECT_EQ(to_string(t.kind), std::string(to_string(it->second))) << t.name << ": \"" << t.text << "\"";
  }
  for (const auto& [name, kind] : pinned_kinds()) EXPECT_TRUE(seen.count(name)) << name << " is pinned but gone";
}

}  // namespace
}  // namespace bc
