#include "oracles/torch_oracle.h"

#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <c10/util/Logging.h>
#include <torch/version.h>

#include "oracles/torch_errors.h"

namespace bc {
namespace {

std::string dtype_name(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return "float32";
    case at::kDouble: return "float64";
    case at::kLong: return "int64";
    case at::kBool: return "bool";
    default: return c10::toString(t);
  }
}

at::Tensor make(const Shape& s) { return at::zeros(s, at::kFloat); }

Outcome from_tensor(const at::Tensor& t) {
  return Outcome::success(Shape(t.sizes().begin(), t.sizes().end()), dtype_name(t.scalar_type()));
}

at::Tensor run_elementwise(const std::string& op, const at::Tensor& a, const at::Tensor& b) {
  if (op == "add") return at::add(a, b);
  if (op == "sub") return at::sub(a, b);
  if (op == "mul") return at::mul(a, b);
  return at::div(a, b);
}

at::Tensor run_inplace(const std::string& op, at::Tensor& a, const at::Tensor& b) {
  if (op == "add_") return a.add_(b);
  if (op == "sub_") return a.sub_(b);
  if (op == "mul_") return a.mul_(b);
  return a.div_(b);
}

class TorchOracle : public Oracle {
 public:
  TorchOracle() {
    at::set_num_threads(1);
    // c10::Error walks the C++ stack for a backtrace on every failed check (about 1 ms here, most of a failing
    // case's cost). The oracle reports what_without_backtrace() only, so it asks for no backtrace at all.
    c10::SetStackTraceFetcher([] { return std::string(); });
  }
  std::string name() const override { return "torch"; }
  std::string version() const override { return std::string("LibTorch ") + TORCH_VERSION; }

  Outcome run(const Case& c) override {
    const OpInfo* op = find_op(c.op);
    if (!op) return Outcome::unsupported_because("unknown op " + c.op);
    try {
      return call(*op, c);
    } catch (const c10::Error& e) {
      return Outcome::failure(classify_torch_message(op->family, e.what_without_backtrace()),
                              e.what_without_backtrace());
    } catch (const std::exception& e) {
      return Outcome::failure(classify_torch_message(op->family, e.what()), e.what());
    }
  }

 private:
  Outcome call(const OpInfo& op, const Case& c) {
    const auto& s = c.shapes;
    if (op.family == "elementwise") return from_tensor(run_elementwise(c.op, make(s[0]), make(s[1])));
    if (op.family == "inplace") {
      at::Tensor self = make(s[0]);
      return from_tensor(run_inplace(c.op, self, make(s[1])));
    }
    if (op.family == "broadcast_shapes") {
      std::vector<at::Tensor> ts;
      for (const Shape& shape : s) ts.push_back(make(shape));
      return from_tensor(at::broadcast_tensors(ts).front());
    }
    if (op.family == "expand") return from_tensor(make(s[0]).expand(s[1]));
    if (op.family == "sum_to") {
      // at::sum_to indexes the source's sizes at negative positions when the target has more dims than the
      // source (undefined behaviour, docs/notes/sum-to-precondition.md), so that case is not called.
      if (s[1].size() > s[0].size())
        return Outcome::unsupported_because(
            "at::sum_to reads out of bounds when the target has more dims than the tensor; not called");
      return from_tensor(at::sum_to(make(s[0]), s[1]));
    }
    if (op.family == "matmul") return from_tensor(at::matmul(make(s[0]), make(s[1])));
    return Outcome::unsupported_because("no LibTorch call for op " + c.op);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_torch_oracle() { return std::make_unique<TorchOracle>(); }

}  // namespace bc
