#include "engine/autograd.h"

#include <map>
#include <set>

#include "engine/elementwise.h"
#include "engine/error_texts.h"
#include "engine/expand.h"
#include "engine/sum_to.h"

namespace bc::ag {

Result<Var> leaf(Tensor data, bool requires_grad) {
  if (requires_grad && category(data.dtype()) != Category::floating)
    return make_error(ErrorText::requires_grad_dtype);
  auto v = std::make_shared<VarState>();
  v->data = std::move(data);
  v->requires_grad = requires_grad;
  return v;
}

Edge edge_of(const Var& v) {
  if (!v || !v->requires_grad) return {};
  if (v->grad_fn) return {v->grad_fn, nullptr};
  return {nullptr, v};
}

Saved save(const Var& v) { return {v->data, v->data.version(), v->grad_fn ? v->grad_fn->name : ""}; }
Saved save(const Tensor& t) { return {t, t.version(), ""}; }
Saved save_output(const Tensor& t, const std::string& producer) { return {t, t.version(), producer}; }

Result<Tensor> Saved::unpack() const {
  if (data.version() == version) return data;
  const std::string type = torch_type_string(data.dtype());
  if (producer.empty())
    return make_error(ErrorText::version_counter, {type, data.sizes(), data.version(), version});
  return make_error(ErrorText::version_counter_output, {type, data.sizes(), producer, data.version(), version});
}

std::shared_ptr<Node> record(const std::string& name, const std::vector<Var>& inputs) {
  bool any = false;
  for (const Var& v : inputs) any = any || (v && v->requires_grad);
  if (!any) return nullptr;
  auto node = std::make_shared<Node>();
  node->name = name;
  for (const Var& v : inputs) {
    node->next.push_back(edge_of(v));
    node->input_shapes.push_back(v ? v->data.sizes() : Shape{});
    node->input_dtypes.push_back(v ? v->data.dtype() : DType::float32);
  }
  return node;
}

void set_history(const Var& v, const std::shared_ptr<Node>& node) {
  if (!node || category(v->data.dtype()) != Category::floating) return;
  v->grad_fn = node;
  v->requires_grad = true;
}

void retain_grad(const Var& v) {
  if (v->grad_fn) v->grad_fn->retains.push_back(v);
}

Tensor cast(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  return Tensor::from_values(t.sizes(), dtype, t.to_doubles());
}

namespace {

Result<Tensor> accumulate(const std::optional<Tensor>& old, const Tensor& g) {
  if (!old) return g;
  return binary(Op::add, *old, g);
}

// validate_outputs: a gradient of another shape is summed to the input's (it must expand to it), then cast.
Result<Tensor> validate(const Node& node, size_t i, const Tensor& g) {
  Tensor out = g;
  if (g.sizes() != node.input_shapes[i]) {
    if (!is_expandable_to(node.input_shapes[i], g.sizes()))
      return make_error(ErrorText::invalid_gradient, {node.name, i, g.sizes(), node.input_shapes[i]});
    Result<Tensor> reduced = sum_to(g, node.input_shapes[i]);
    if (!reduced.ok()) return reduced.error();
    out = reduced.value();
  }
  return cast(out, node.input_dtypes[i]);
}

}  // namespace

Result<bool> backward(const Var& root, const Tensor& gradient) {
  if (!root->requires_grad)
    return make_error(ErrorText::backward_no_grad);
  if (root->is_leaf()) {
    Result<Tensor> g = accumulate(root->grad, gradient);
    if (!g.ok()) return g.error();
    root->grad = g.value();
    return true;
  }
  // Dependencies: how many edges from reachable nodes point at each node. A node runs once all have delivered.
  std::map<Node*, int> pending;
  std::vector<Node*> stack{root->grad_fn.get()};
  std::set<Node*> seen{root->grad_fn.get()};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    for (const Edge& e : n->next)
      if (e.node) {
        ++pending[e.node.get()];
        if (seen.insert(e.node.get()).second) stack.push_back(e.node.get());
      }
  }
  std::map<Node*, std::optional<Tensor>> buffer{{root->grad_fn.get(), gradient}};
  std::vector<Node*> ready{root->grad_fn.get()};
  while (!ready.empty()) {
    Node* n = ready.back();
    ready.pop_back();
    const std::optional<Tensor> grad = buffer[n];
    buffer.erase(n);
    Grads grads(n->next.size());
    if (grad) {
      for (const auto& weak : n->retains)
        if (Var v = weak.lock()) v->grad = *grad;
      Result<Grads> r = n->backward(*grad);
      if (!r.ok()) return r.error();
      grads = r.value();
    }
    for (size_t i = 0; i < n->next.size(); ++i) {
      const Edge& e = n->next[i];
      if (e && i < grads.size() && grads[i]) {
        Result<Tensor> g = validate(*n, i, *grads[i]);
        if (!g.ok()) return g.error();
        std::optional<Tensor>& into = e.node ? buffer[e.node.get()] : e.leaf->grad;
        Result<Tensor> sum = accumulate(into, g.value());
        if (!sum.ok()) return sum.error();
        into = sum.value();
      }
      if (e.node && --pending[e.node.get()] == 0) ready.push_back(e.node.get());
    }
  }
  return true;
}

}  // namespace bc::ag
