#include "oracles/torch_errors.h"

#include <utility>
#include <vector>

namespace bc {

ErrorKind classify_torch_message(Family family, const std::string& message) {
  static const std::vector<std::pair<std::string, ErrorKind>> patterns = {
      {"The size of tensor a (", ErrorKind::broadcast},
      {"output with shape ", ErrorKind::inplace_shape},
      {"The expanded size of the tensor", ErrorKind::expand},
      {"expand(", ErrorKind::expand},
      {"both arguments to matmul need to be at least 1D", ErrorKind::matmul_shape},
      {"mat1 and mat2 shapes cannot be multiplied", ErrorKind::matmul_shape},
      {"size mismatch, got ", ErrorKind::matmul_shape},
      {"Expected size for first two dimensions of batch2 tensor", ErrorKind::matmul_shape},
      {"inconsistent tensor size, expected tensor", ErrorKind::matmul_shape},
      // The strict products' and fused products' own shape checks.
      {"self must be a matrix", ErrorKind::matmul_shape},
      {"mat1 must be a matrix", ErrorKind::matmul_shape},
      {"mat2 must be a matrix", ErrorKind::matmul_shape},
      {"batch1 must be a 3D tensor", ErrorKind::matmul_shape},
      {"batch2 must be a 3D tensor", ErrorKind::matmul_shape},
      {"vector + matrix @ vector expected", ErrorKind::matmul_shape},
      {"1D tensors expected, but got", ErrorKind::matmul_shape},
      {"outer: Expected 1-D argument", ErrorKind::matmul_shape},
      {"addr: Expected 1-D argument", ErrorKind::matmul_shape},
      {"batch1 and batch2 must have same number of batches", ErrorKind::matmul_shape},
      {"Incompatible matrix sizes for bmm", ErrorKind::matmul_shape},
      {"2D tensor expected, got ", ErrorKind::inplace_shape},
      {"size mismatch, input: ", ErrorKind::inplace_shape},
      {"Bad in-place call: input tensor size", ErrorKind::inplace_shape},
      {"Bad in-place call: input tensor dtype", ErrorKind::dtype_cast},
      {"expected scalar type ", ErrorKind::dtype_mismatch},
      {"mat1 and mat2 must have the same dtype", ErrorKind::dtype_mismatch},
      {"self and mat2 must have the same dtype", ErrorKind::dtype_mismatch},
      {"dot : expected both vectors to have same dtype", ErrorKind::dtype_mismatch},
      {"Dimension specified as ", ErrorKind::invalid_argument},  // ... but tensor has no dimensions
      {"Dimension out of range (expected to be in range of ", ErrorKind::invalid_argument},
      {"Integer division with addcdiv is no longer supported", ErrorKind::invalid_argument},
      {"numel: integer multiplication overflow", ErrorKind::invalid_argument},
      {"Trying to create tensor with negative dimension", ErrorKind::invalid_argument},
      {"unsupported operation: more than one element of the written-to tensor", ErrorKind::internal_overlap},
      {"unsupported operation: some elements of the input tensor and the written-to tensor",
       ErrorKind::partial_overlap},
      {"result type ", ErrorKind::dtype_cast},
      {"ZeroDivisionError", ErrorKind::invalid_argument},
      {"For integral input tensors, argument ", ErrorKind::invalid_argument},  // alpha, beta
      {"Subtraction, the `-` operator, with ", ErrorKind::invalid_argument},
      {"expected dtype ", ErrorKind::invalid_argument},
      {"where expected condition to be a boolean tensor", ErrorKind::invalid_argument},
      {"norm(): input dtype should be either floating point or complex", ErrorKind::invalid_argument},
      {"\"", ErrorKind::invalid_argument},  // "<kernel>" not implemented for '<Type>'
      {"a leaf Variable that requires grad is being used in an in-place operation.", ErrorKind::leaf_inplace},
      {"a view of a leaf Variable that requires grad is being used in an in-place operation.",
       ErrorKind::leaf_inplace},
      {"Only Tensors of floating point and complex dtype can require gradients", ErrorKind::invalid_argument},
      {"element 0 of tensors does not require grad and does not have a grad_fn", ErrorKind::invalid_argument},
      {"one of the variables needed for gradient computation has been modified by an inplace operation",
       ErrorKind::version_counter},
  };
  for (const auto& [prefix, kind] : patterns)
    if (message.rfind(prefix, 0) == 0) return kind;
  if (family == Family::sum_to) return ErrorKind::sum_to;
  return ErrorKind::other;
}

}  // namespace bc
