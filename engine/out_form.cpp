#include "engine/out_form.h"

#include "engine/elementwise.h"
#include "engine/error_texts.h"

namespace bc {

std::string resize_warning(const Shape& had, const Shape& required) {
  if (had == required || numel(had) == 0) return "";
  return format_error_text(ErrorText::out_resized, {had, required});
}

Result<OutForm> binary_out_form(Op op, const Tensor& a, const Tensor& b, Scalar alpha, const Shape& out_shape,
                                DType out_dtype, bool requires_grad) {
  const BinaryRule* rule = binary_rule(op);
  // VariableType's out= check exists only for ops with a formula: not for comparisons or floor_divide.
  if (requires_grad && rule && rule->backward) return make_error(ErrorText::out_autograd, {to_string(out_of_place(op))});
  Result<Tensor> r = binary_out(op, a, b, alpha, out_dtype);
  if (!r.ok()) return r.error();
  OutForm form{r.value(), {}};
  const std::string warning = resize_warning(out_shape, r.value().sizes());
  if (!warning.empty()) form.warnings.push_back(warning);
  return form;
}

}  // namespace bc
