// What every differentiable op's backward is written with (engine/autograd_ops.h, autograd_products.h,
// autograd_addcmul.h): tensor ops that cannot fail on inputs the forward accepted (must), a formula attached to a
// node so that an op that does fail inside it becomes backward's error, 0-d numbers, and LibTorch's in-place check.
#pragma once

#include <functional>
#include <optional>

#include "engine/autograd.h"
#include "engine/op_table.h"
#include "engine/scalar.h"

namespace bc::ag {

// A formula's intermediate op failed: backward reports the error (attach catches it).
struct FormulaError {
  Error error;
};
inline Tensor must(Result<Tensor> r) {
  if (!r.ok()) throw FormulaError{r.error()};
  return r.value();
}

using Formula = std::function<Grads(const Tensor& grad)>;
void attach(const std::shared_ptr<Node>& node, Formula f);

// The pointwise ops formulas are written with: a op b (a binary op of engine/op_table.h), a * b, a / b, and
// cond ? a : b.
Tensor apply(Op op, const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor choose(const Tensor& cond, const Tensor& a, const Tensor& b);

// v as a 0-d tensor of like's dtype (an integer literal of a formula meeting a tensor).
Tensor number(double v, const Tensor& like);
// A scalar argument (alpha, value, ...) as the 0-d operand LibTorch's wrapped number acts as next to `like`: of
// like's dtype, unless its kind is higher (a float next to an integer or bool tensor: the default float32; an
// integer next to a bool tensor: int64), so that `like * s` computes in the dtype LibTorch's would.
Tensor wrapped(Scalar s, const Tensor& like);
// A copy of t's elements (an in-place op saves self's old value this way).
Tensor copy(const Tensor& t);
// g * s, or g itself when s is 1 (LibTorch's maybe_multiply).
Tensor maybe_multiply(const Tensor& g, Scalar s);
// An op's result, as a var that does not require grad yet (set_history makes it an output).
Var output(const Tensor& t);

// LibTorch's check_inplace: refused when grad is needed and self is a leaf that requires grad, or a view of one.
std::optional<Error> check_inplace(const Var& self, bool grad_needed);

}  // namespace bc::ag
