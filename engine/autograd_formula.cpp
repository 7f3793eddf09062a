#include "engine/autograd_formula.h"

#include "engine/elementwise.h"
#include "engine/error_texts.h"
#include "engine/grad_math.h"

namespace bc::ag {

void attach(const std::shared_ptr<Node>& node, Formula f) {
  if (!node) return;
  node->backward = [f = std::move(f)](const Tensor& grad) -> Result<Grads> {
    try {
      return f(grad);
    } catch (const FormulaError& e) {
      return e.error;
    }
  };
}

Tensor apply(Op op, const Tensor& a, const Tensor& b) { return must(bc::binary(op, a, b)); }
Tensor mul(const Tensor& a, const Tensor& b) { return apply(Op::mul, a, b); }
Tensor div(const Tensor& a, const Tensor& b) { return apply(Op::div, a, b); }
Tensor choose(const Tensor& cond, const Tensor& a, const Tensor& b) { return must(bc::where(cond, a, b)); }

Tensor number(double v, const Tensor& like) { return scalar_tensor(v, like.dtype()); }

Tensor wrapped(Scalar s, const Tensor& like) {
  DType t = like.dtype();
  if (!s.integral && category(t) != Category::floating) t = DType::float32;
  if (s.integral && t == DType::bool_) t = DType::int64;
  return scalar_tensor(s.value, t);
}

Tensor copy(const Tensor& t) { return Tensor::from_values(t.sizes(), t.dtype(), t.to_doubles()); }

Tensor maybe_multiply(const Tensor& g, Scalar s) {
  return s.value == 1 ? g : mul(g, wrapped(s, g));
}

Var output(const Tensor& t) { return leaf(t).value(); }

std::optional<Error> check_inplace(const Var& self, bool grad_needed) {
  if (!grad_needed) return std::nullopt;
  if (self->view_of_leaf && self->requires_grad)
    return make_error(ErrorText::leaf_view_inplace);
  if (self->is_leaf() && self->requires_grad) return make_error(ErrorText::leaf_inplace);
  return std::nullopt;
}

}  // namespace bc::ag
