// Reverse-mode autograd on engine tensors, recorded as LibTorch 1.13 records it: each differentiable op on vars
// that require grad adds a node holding its backward formula and the tensors that formula needs (saved with the
// storage version they had); backward() runs every node reachable from the root once, in reverse topological
// order, sums each gradient to its input's shape (sum_to, seed 000's validate_outputs -> reduce_grad) and casts it
// to the input's dtype, and accumulates into the leaves' .grad. The reduction is engine/sum_to.h's (the merged-axis
// kernel of seed 004). The ops themselves are in engine/autograd_ops.h.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/tensor.h"

namespace bc::ag {

struct Node;
struct VarState;
using Var = std::shared_ptr<VarState>;

struct VarState {
  Tensor data;
  bool requires_grad = false;
  bool view_of_leaf = false;      // a view of a leaf that requires grad: in-place on it is refused too
  std::shared_ptr<Node> grad_fn;  // null: a leaf
  std::optional<Tensor> grad;     // leaves, and vars that retain their grad
  bool is_leaf() const { return !grad_fn; }
};

// A leaf. LibTorch refuses requires_grad on integer and bool tensors; so does this (invalid_argument).
Result<Var> leaf(Tensor data, bool requires_grad = false);

// Where the gradient of one input goes: into the node that produced it, into a leaf's .grad, or nowhere.
struct Edge {
  std::shared_ptr<Node> node;
  Var leaf;
  explicit operator bool() const { return node || leaf; }
};
Edge edge_of(const Var& v);

// A tensor kept for backward (SavedVariable): unpacking it fails with version_counter when its storage was
// written in place since (LibTorch's text, naming the op that produced it if any).
struct Saved {
  Tensor data;
  int64_t version = 0;
  std::string producer;  // the name of the node whose output it is, if any (a name: a pointer would be a cycle)
  Result<Tensor> unpack() const;
};
Saved save(const Var& v);
Saved save(const Tensor& t);  // a tensor no var owns (a clone made for an in-place op)
Saved save_output(const Tensor& t, const std::string& producer);  // an op's own result

using Grads = std::vector<std::optional<Tensor>>;

struct Node {
  std::string name;                 // LibTorch's, e.g. "MulBackward0"
  std::vector<Edge> next;           // one per input
  std::vector<Shape> input_shapes;  // each input's gradient is summed to this shape...
  std::vector<DType> input_dtypes;  // ...and cast to this dtype
  std::function<Result<Grads>(const Tensor& grad)> backward;
  std::vector<std::weak_ptr<VarState>> retains;  // vars whose .grad is the gradient arriving here (retain_grad)
  bool wants(size_t input) const { return input < next.size() && static_cast<bool>(next[input]); }
};

// A node for an op on `inputs` (null when none of them requires grad: nothing is recorded).
std::shared_ptr<Node> record(const std::string& name, const std::vector<Var>& inputs);

// Makes `v` the output of `node` (and so a var that requires grad), or leaves it alone when node is null or v is
// not floating: an integer or bool result is not differentiable (LibTorch asserts instead: torch-autograd-integer-result).
void set_history(const Var& v, const std::shared_ptr<Node>& node);

// Keeps the gradient that reaches v in v->grad during backward (retain_grad), for non-leaves.
void retain_grad(const Var& v);

// Runs backward from `root` with `gradient` (of root's shape and dtype). Errors: the root does not require grad
// (invalid_argument), a saved tensor was modified (version_counter), or a formula's own error.
Result<bool> backward(const Var& root, const Tensor& gradient);

// `t` converted to `dtype` (a copy; the same tensor when it already has that dtype).
Tensor cast(const Tensor& t, DType dtype);

}  // namespace bc::ag
