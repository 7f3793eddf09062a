// Error texts as data: every message the engine raises is one template in one table (engine/error_texts.cpp), with
// its ErrorKind. The engine fills a template (make_error); the LibTorch classifier (oracles/torch_errors.cpp) matches
// the fixed text before each template's first hole. Texts marked libtorch are LibTorch 1.13's, byte for byte.
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/error.h"
#include "engine/shape.h"

namespace bc {

// One id per template; the table's rows say what each one reads.
enum class ErrorText {
  // Broadcasting, expand, in-place shapes, sum_to.
  broadcast_mismatch,
  inplace_broadcast,
  expand_too_few_sizes,
  expand_negative_leading,
  expand_mismatch,
  numel_overflow,
  negative_dimension,
  sum_to_not_expandable,
  sum_to_not_floating,
  // In-place rules and dtypes.
  internal_overlap,
  partial_overlap,
  cast,
  bad_inplace_dtype,
  bad_inplace_size,
  not_implemented,
  zero_division,
  integral_scalar,
  sub_two_bools,
  sub_bool,
  addcdiv_integer,
  lerp_dtype,
  where_condition,
  norm_dtype,
  neg_bool,
  // Dims.
  no_dimensions,
  dim_out_of_range,
  // Products.
  matmul_zero_dim,
  mm_sizes,
  mv_sizes,
  dot_sizes,
  bmm_sizes,
  self_not_matrix,
  mat2_not_matrix,
  mat1_rank,
  mat2_rank,
  batch1_not_3d,
  batch2_not_3d,
  mv_ranks,
  dot_ranks,
  outer_rank,
  addr_rank,
  addr_input_rank,
  addr_input_size,
  batch_counts,
  addbmm_sizes,
  scalar_type,
  dot_dtypes,
  self_mat2_dtype,
  mat1_mat2_dtype,
  not_fused,
  not_strict,
  // Autograd.
  requires_grad_dtype,
  backward_no_grad,
  leaf_inplace,
  leaf_view_inplace,
  version_counter,
  version_counter_output,
  invalid_gradient,
  view_of_storage,
  // Views.
  permute_count,
  permute_repeat,
  transpose_dim,
  slice_dim,
  slice_step,
  strides_length,
  negative_strides,
  view_outside_storage,
  reshape_numel,
  // Scalars.
  scalar_overflow,
  pow_negative_integer,
  // Autograd, continued.
  derivative_not_implemented,
  // out= forms: autograd's refusal, and the warning of a resized out (a warning: never an error's text).
  out_autograd,
  out_resized,
  // Reductions over dims (sum, mean, amax, amin, prod).
  dim_repeated,
  amax_zero_size,
  amin_zero_size,
  amax_zero_numel,
  amin_zero_numel,
  mean_input_dtype,
  mean_dtype_arg,
};

// Who wrote the words: LibTorch 1.13 (the engine must print them exactly), or the engine itself, for its own
// precondition failures that LibTorch has no counterpart for.
enum class Origin { libtorch, engine };

struct ErrorTemplate {
  ErrorText id;
  ErrorKind kind;
  Origin origin;
  // Whether classify_torch_message recognises LibTorch's message by this template's fixed leading text. The
  // libtorch texts it leaves out say why in the table.
  bool classified;
  const char* name;  // "broadcast_mismatch"
  // The message; a hole is `{name}` (lowercase letters, digits, '_'); any other brace is literal text.
  const char* text;
};

// All templates, in the enum's order.
const std::vector<ErrorTemplate>& error_templates();
const ErrorTemplate& error_template(ErrorText id);

// One value for a hole: text as given, integers in decimal, shapes as LibTorch prints them ("[2, 3]").
struct TextArg {
  std::string text;
  TextArg(std::string s) : text(std::move(s)) {}  // NOLINT: implicit on purpose, as are the others
  TextArg(const char* s) : text(s) {}              // NOLINT
  TextArg(const Shape& s) : text(format_shape(s)) {}  // NOLINT
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  TextArg(I n) : text(std::to_string(n)) {}  // NOLINT
};

// The template's distinct hole names, in order of first appearance: the order its values are given in.
std::vector<std::string> hole_names(const ErrorTemplate& t);

// Fills the holes: each distinct hole name takes the next value, and a name that appears again repeats its value.
// Throws std::logic_error when the count of values does not match.
std::string format_error_text(ErrorText id, const std::vector<TextArg>& values = {});
Error make_error(ErrorText id, const std::vector<TextArg>& values = {});

// The text before the first hole (the whole text when it has none).
std::string fixed_prefix(const ErrorTemplate& t);

}  // namespace bc
