#include "engine/error_texts.h"

#include <algorithm>
#include <stdexcept>

namespace bc {
namespace {

using E = ErrorText;
using K = ErrorKind;
constexpr Origin torch = Origin::libtorch, engine = Origin::engine;
constexpr bool classified = true, unclassified = false;

// One row per message, in the enum's order (checked_table checks it).
std::vector<ErrorTemplate> make_table() {
  return {
      // Broadcasting (infer_size), expand (inferExpandGeometry), in-place shapes (TensorIterator).
      {E::broadcast_mismatch, K::broadcast, torch, classified, "broadcast_mismatch",
       "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"},
      {E::inplace_broadcast, K::inplace_shape, torch, classified, "inplace_broadcast",
       "output with shape {self} doesn't match the broadcast shape {broadcast}"},
      // LibTorch prints the tensor as its type and sizes: "CPUFloatType{[3, 1]}".
      {E::expand_too_few_sizes, K::expand, torch, classified, "expand_too_few_sizes",
       "expand({type}{{sizes}}, size={target}): the number of sizes provided ({given}) must be greater or equal to "
       "the number of dimensions in the tensor ({rank})"},
      {E::expand_negative_leading, K::expand, torch, classified, "expand_negative_leading",
       "The expanded size of the tensor ({size}) isn't allowed in a leading, non-existing dimension {dim}"},
      {E::expand_mismatch, K::expand, torch, classified, "expand_mismatch",
       "The expanded size of the tensor ({want}) must match the existing size ({size}) at non-singleton dimension "
       "{dim}.  Target sizes: {target}.  Tensor sizes: {sizes}"},
      {E::numel_overflow, K::invalid_argument, torch, classified, "numel_overflow",
       "numel: integer multiplication overflow"},
      // Creating a tensor of a shape with a negative size (c10's check_size_nonnegative).
      {E::negative_dimension, K::invalid_argument, torch, classified, "negative_dimension",
       "Trying to create tensor with negative dimension {size}: {sizes}"},
      // LibTorch's sum_to fails inside whatever view it called last; the classifier takes any unknown message in
      // the sum_to family as this kind instead.
      {E::sum_to_not_expandable, K::sum_to, engine, unclassified, "sum_to_not_expandable",
       "sum_to: shape {to} is not expandable to the size {from} of the tensor being summed"},
      {E::sum_to_not_floating, K::invalid_argument, engine, unclassified, "sum_to_not_floating",
       "sum_to: a gradient is float32 or float64, not {dtype}"},

      // In-place rules and dtypes.
      {E::internal_overlap, K::internal_overlap, torch, classified, "internal_overlap",
       "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
       "Please clone() the tensor before performing the operation."},
      {E::partial_overlap, K::partial_overlap, torch, classified, "partial_overlap",
       "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
       "memory location. Please clone() the tensor before performing the operation."},
      {E::cast, K::dtype_cast, torch, classified, "cast",
       "result type {result} can't be cast to the desired output type {self}"},
      // Structured kernels' check of an in-place self; dtypes print as C++ type names (cxx_type_name).
      {E::bad_inplace_dtype, K::dtype_cast, torch, classified, "bad_inplace_dtype",
       "Bad in-place call: input tensor dtype {self} and output tensor dtype {result} should match"},
      {E::bad_inplace_size, K::inplace_shape, torch, classified, "bad_inplace_size",
       "Bad in-place call: input tensor size {self} and output tensor size {result} should match"},
      {E::not_implemented, K::invalid_argument, torch, classified, "not_implemented",
       "\"{kernel}\" not implemented for '{type}'"},
      {E::zero_division, K::invalid_argument, torch, classified, "zero_division", "ZeroDivisionError"},
      {E::integral_scalar, K::invalid_argument, torch, classified, "integral_scalar",
       "For integral input tensors, argument {name} must not be a floating point number."},
      {E::sub_two_bools, K::invalid_argument, torch, classified, "sub_two_bools",
       "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
       "operator instead."},
      {E::sub_bool, K::invalid_argument, torch, classified, "sub_bool",
       "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use "
       "the `~` or `logical_not()` operator instead."},
      {E::addcdiv_integer, K::invalid_argument, torch, classified, "addcdiv_integer",
       "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
       "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
       "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
       "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * "
       "tensor1 / tensor2), for all dtypes."},
      {E::lerp_dtype, K::invalid_argument, torch, classified, "lerp_dtype",
       "expected dtype {expected} for `{arg}` but got dtype {got}"},
      // Checked before the shapes. A uint8 condition is taken (LibTorch 1.13 warns: "where received a uint8 condition
      // tensor. This behavior is deprecated and will be removed in a future version of PyTorch. Use a boolean
      // condition instead."); probed 2026-11-25, corpus/findings.jsonl finding-where-*-condition-refused.
      {E::where_condition, K::invalid_argument, torch, classified, "where_condition",
       "where expected condition to be a boolean tensor, but got a tensor with dtype {dtype}"},
      {E::norm_dtype, K::invalid_argument, torch, classified, "norm_dtype",
       "norm(): input dtype should be either floating point or complex. Got {dtype} instead."},

      // neg's own check (LibTorch 1.13's neg on a bool tensor; its message, run here).
      {E::neg_bool, K::invalid_argument, torch, classified, "neg_bool",
       "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
       "`~` or `logical_not()` operator instead."},

      // Dims (t.size(d), maybe_wrap_dim).
      {E::no_dimensions, K::invalid_argument, torch, classified, "no_dimensions",
       "Dimension specified as {dim} but tensor has no dimensions"},
      {E::dim_out_of_range, K::invalid_argument, torch, classified, "dim_out_of_range",
       "Dimension out of range (expected to be in range of [{min}, {max}], but got {dim})"},

      // Products: shapes, then dtypes.
      {E::matmul_zero_dim, K::matmul_shape, torch, classified, "matmul_zero_dim",
       "both arguments to matmul need to be at least 1D, but they are {dim1}D and {dim2}D"},
      {E::mm_sizes, K::matmul_shape, torch, classified, "mm_sizes",
       "mat1 and mat2 shapes cannot be multiplied ({rows1}x{cols1} and {rows2}x{cols2})"},
      {E::mv_sizes, K::matmul_shape, torch, classified, "mv_sizes", "size mismatch, got {self}, {rows}x{cols},{length}"},
      {E::dot_sizes, K::matmul_shape, torch, classified, "dot_sizes",
       "inconsistent tensor size, expected tensor [{n1}] and src [{n2}] to have the same number of elements, but got "
       "{n1} and {n2} elements respectively"},
      {E::bmm_sizes, K::matmul_shape, torch, classified, "bmm_sizes",
       "Expected size for first two dimensions of batch2 tensor to be: [{batch}, {inner}] but got: [{got0}, {got1}]."},
      {E::self_not_matrix, K::matmul_shape, torch, classified, "self_not_matrix", "self must be a matrix"},
      {E::mat2_not_matrix, K::matmul_shape, torch, classified, "mat2_not_matrix", "mat2 must be a matrix"},
      {E::mat1_rank, K::matmul_shape, torch, classified, "mat1_rank", "mat1 must be a matrix, got {dim}-D tensor"},
      {E::mat2_rank, K::matmul_shape, torch, classified, "mat2_rank", "mat2 must be a matrix, got {dim}-D tensor"},
      {E::batch1_not_3d, K::matmul_shape, torch, classified, "batch1_not_3d", "batch1 must be a 3D tensor"},
      {E::batch2_not_3d, K::matmul_shape, torch, classified, "batch2_not_3d", "batch2 must be a 3D tensor"},
      {E::mv_ranks, K::matmul_shape, torch, classified, "mv_ranks",
       "vector + matrix @ vector expected, got {self_dim}, {mat_dim}, {vec_dim}"},
      {E::dot_ranks, K::matmul_shape, torch, classified, "dot_ranks", "1D tensors expected, but got {dim1}D and {dim2}D tensors"},
      {E::outer_rank, K::matmul_shape, torch, classified, "outer_rank", "outer: Expected 1-D argument {arg}, but got {dim}-D"},
      {E::addr_rank, K::matmul_shape, torch, classified, "addr_rank", "addr: Expected 1-D argument {arg}, but got {dim}-D"},
      {E::addr_input_rank, K::inplace_shape, torch, classified, "addr_input_rank",
       "2D tensor expected, got {dim}D tensor for input"},
      {E::addr_input_size, K::inplace_shape, torch, classified, "addr_input_size",
       "size mismatch, input: {input}, v1: {v1}, v2: {v2}"},
      {E::batch_counts, K::matmul_shape, torch, classified, "batch_counts",
       "batch1 and batch2 must have same number of batches, got {batches1} and {batches2}"},
      {E::addbmm_sizes, K::matmul_shape, torch, classified, "addbmm_sizes",
       "Incompatible matrix sizes for bmm ({rows1}x{cols1} and {rows2}x{cols2})"},
      {E::scalar_type, K::dtype_mismatch, torch, classified, "scalar_type", "expected scalar type {expected} but found {found}"},
      {E::dot_dtypes, K::dtype_mismatch, torch, classified, "dot_dtypes",
       "dot : expected both vectors to have same dtype, but found {dtype1} and {dtype2}"},
      {E::self_mat2_dtype, K::dtype_mismatch, torch, classified, "self_mat2_dtype", "self and mat2 must have the same dtype"},
      {E::mat1_mat2_dtype, K::dtype_mismatch, torch, classified, "mat1_mat2_dtype", "mat1 and mat2 must have the same dtype"},
      {E::not_fused, K::invalid_argument, engine, unclassified, "not_fused", "{op} is not a fused product"},
      {E::not_strict, K::invalid_argument, engine, unclassified, "not_strict",
       "{op} is not a strict product (matmul: engine/autograd_products.h)"},

      // Autograd. The saved tensor prints as its type and sizes: "CPUFloatType [2, 3]".
      {E::requires_grad_dtype, K::invalid_argument, torch, classified, "requires_grad_dtype",
       "Only Tensors of floating point and complex dtype can require gradients"},
      {E::backward_no_grad, K::invalid_argument, torch, classified, "backward_no_grad",
       "element 0 of tensors does not require grad and does not have a grad_fn"},
      {E::leaf_inplace, K::leaf_inplace, torch, classified, "leaf_inplace",
       "a leaf Variable that requires grad is being used in an in-place operation."},
      {E::leaf_view_inplace, K::leaf_inplace, torch, classified, "leaf_view_inplace",
       "a view of a leaf Variable that requires grad is being used in an in-place operation."},
      {E::version_counter, K::version_counter, torch, classified, "version_counter",
       "one of the variables needed for gradient computation has been modified by an inplace operation: [{type} "
       "{sizes}] is at version {version}; expected version {expected} instead. Hint: enable anomaly detection to find "
       "the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True)."},
      {E::version_counter_output, K::version_counter, torch, classified, "version_counter_output",
       "one of the variables needed for gradient computation has been modified by an inplace operation: [{type} "
       "{sizes}], which is output 0 of {producer}, is at version {version}; expected version {expected} instead. "
       "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
       "torch.autograd.set_detect_anomaly(True)."},
      // validate_outputs; the classifier leaves it unclassified (other, or sum_to in the sum_to family).
      {E::invalid_gradient, K::other, torch, unclassified, "invalid_gradient",
       "Function {function} returned an invalid gradient at index {index} - got {got} but expected shape compatible "
       "with {expected}"},
      {E::view_of_storage, K::invalid_argument, engine, unclassified, "view_of_storage",
       "view_of: the view must look into the base's contiguous storage"},

      // Views. The LibTorch texts among these were never classified: a case reaching them in LibTorch reports
      // `other` (or `sum_to` in the sum_to family, where a failing reshape is sum_to's precondition).
      {E::permute_count, K::invalid_argument, engine, unclassified, "permute_count",
       "permute: the order names {given} dims for a tensor of {rank}"},
      {E::permute_repeat, K::invalid_argument, engine, unclassified, "permute_repeat",
       "permute: the order must name each dim once"},
      {E::transpose_dim, K::invalid_argument, engine, unclassified, "transpose_dim", "transpose: dim out of range"},
      {E::slice_dim, K::invalid_argument, engine, unclassified, "slice_dim", "slice: dim out of range"},
      {E::slice_step, K::invalid_argument, torch, unclassified, "slice_step", "slice step must be positive"},
      {E::strides_length, K::invalid_argument, torch, unclassified, "strides_length",
       "mismatch in length of strides and shape"},
      // LibTorch's goes on: ", got strides: [...]".
      {E::negative_strides, K::invalid_argument, engine, unclassified, "negative_strides",
       "as_strided: Negative strides are not supported at the moment"},
      {E::view_outside_storage, K::invalid_argument, engine, unclassified, "view_outside_storage",
       "as_strided: the view reaches outside the storage"},
      {E::reshape_numel, K::invalid_argument, torch, unclassified, "reshape_numel",
       "shape '{shape}' is invalid for input of size {numel}"},

      // c10's checked Scalar conversion (Scalar::to<T>, c10/util/TypeCast.h): a value outside T's range.
      {E::scalar_overflow, K::other, torch, classified, "scalar_overflow",
       "value cannot be converted to type {type} without overflow"},
      // pow(Tensor, Scalar)'s NumPy-compatibility check, first of all: an integer or bool base, a negative int.
      {E::pow_negative_integer, K::invalid_argument, torch, classified, "pow_negative_integer",
       "Integers to negative integer powers are not allowed."},

      // Autograd, continued: the node of an op derivatives.yaml gives no formula (floor_divide), at backward.
      {E::derivative_not_implemented, K::invalid_argument, torch, classified, "derivative_not_implemented",
       "derivative for {op} is not implemented"},

      // out= forms (probed on LibTorch 1.13: add_out, mul_out, ... with an input that requires grad; an out of
      // another shape). The resize text is a warning (TORCH_WARN), never an error, so it classifies nothing.
      // It starts with the op's name, so no fixed prefix can classify it: LibTorch's text is kind other.
      {E::out_autograd, K::other, torch, unclassified, "out_autograd",
       "{op}(): functions with out=... arguments don't support automatic differentiation, but one of the arguments "
       "requires grad."},
      {E::out_resized, K::other, torch, unclassified, "out_resized",
       "An output with one or more elements was resized since it had shape {shape}, which does not match the "
       "required output shape {required}. This behavior is deprecated, and in a future PyTorch release outputs will "
       "not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
       "inplace, to zero elements with t.resize_(0)."},

      // Reductions over dims: a dim named twice (after wrapping), a max or min over nothing (the dim as written,
      // in the list's order; no dims at all on an empty tensor), and mean's dtype checks (before the dims').
      {E::dim_repeated, K::invalid_argument, torch, classified, "dim_repeated",
       "dim {dim} appears multiple times in the list of dims"},
      {E::amax_zero_size, K::invalid_argument, torch, classified, "amax_zero_size",
       "amax(): Expected reduction dim {dim} to have non-zero size."},
      {E::amin_zero_size, K::invalid_argument, torch, classified, "amin_zero_size",
       "amin(): Expected reduction dim {dim} to have non-zero size."},
      {E::amax_zero_numel, K::invalid_argument, torch, classified, "amax_zero_numel",
       "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
       "'dim' argument."},
      {E::amin_zero_numel, K::invalid_argument, torch, classified, "amin_zero_numel",
       "amin(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the "
       "'dim' argument."},
      {E::mean_input_dtype, K::invalid_argument, torch, classified, "mean_input_dtype",
       "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
       "Got: {dtype}"},
      {E::mean_dtype_arg, K::invalid_argument, torch, classified, "mean_dtype_arg",
       "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex dtype. "
       "Got: {dtype}"},
  };
}

constexpr int kTextCount = static_cast<int>(ErrorText::mean_dtype_arg) + 1;

// The rows, checked to be one per id in the enum's order, so that a row is found by its id.
std::vector<ErrorTemplate> checked_table() {
  std::vector<ErrorTemplate> t = make_table();
  bool in_order = t.size() == static_cast<size_t>(kTextCount);
  for (size_t k = 0; in_order && k < t.size(); ++k) in_order = static_cast<size_t>(t[k].id) == k;
  if (!in_order) throw std::logic_error("engine/error_texts.cpp: one row per ErrorText, in the enum's order");
  return t;
}

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// The hole starting at text[at] ("{name}"): its length, or 0 when the brace there is literal text.
size_t hole_length(const std::string& text, size_t at) {
  if (text[at] != '{') return 0;
  size_t end = at + 1;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return end > at + 1 && end < text.size() && text[end] == '}' ? end - at + 1 : 0;
}

}  // namespace

const std::vector<ErrorTemplate>& error_templates() {
  static const std::vector<ErrorTemplate> table = checked_table();
  return table;
}

const ErrorTemplate& error_template(ErrorText id) { return error_templates()[static_cast<size_t>(id)]; }

std::vector<std::string> hole_names(const ErrorTemplate& t) {
  const std::string text = t.text;
  std::vector<std::string> names;
  for (size_t at = 0; at < text.size(); ++at)
    if (const size_t n = hole_length(text, at); n > 0) {
      const std::string name = text.substr(at + 1, n - 2);
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      at += n - 1;
    }
  return names;
}

std::string format_error_text(ErrorText id, const std::vector<TextArg>& values) {
  const ErrorTemplate& t = error_template(id);
  const std::vector<std::string> names = hole_names(t);
  if (names.size() != values.size())
    throw std::logic_error(std::string("engine/error_texts: ") + t.name + " takes " + std::to_string(names.size()) +
                           " values, got " + std::to_string(values.size()));
  const std::string text = t.text;
  std::string out;
  for (size_t at = 0; at < text.size();) {
    const size_t n = hole_length(text, at);
    if (n == 0) {
      out += text[at++];
      continue;
    }
    const auto k = std::find(names.begin(), names.end(), text.substr(at + 1, n - 2)) - names.begin();
    out += values[static_cast<size_t>(k)].text;
    at += n;
  }
  return out;
}

Error make_error(ErrorText id, const std::vector<TextArg>& values) {
  return Error{error_template(id).kind, format_error_text(id, values)};
}

std::string fixed_prefix(const ErrorTemplate& t) {
  const std::string text = t.text;
  for (size_t at = 0; at < text.size(); ++at)
    if (hole_length(text, at) > 0) return text.substr(0, at);
  return text;
}

}  // namespace bc
