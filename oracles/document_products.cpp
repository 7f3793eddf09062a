#include "oracles/document_products.h"

#include <algorithm>

#include "harness/operands.h"
#include "oracles/document_operands.h"
#include "oracles/document_shapes.h"

// The rows [D1] ... [D11] cited are those of docs/notes/document-voter.md, which names each rule's document.
// Nothing here calls the engine's code: the rules are restated from the documents, small and on purpose naive.

namespace bc::documents {
namespace {

// Products ([D6]) and the fused products ([D7])

// A batched matrix product A [batch_a..., n, m] x B [batch_b..., m, p], batch dims broadcast to `batch`; `result`
// is the op's shape, the same elements in the same order (1-D operands' added dims left out).
struct ProductPlan {
  Shape a, b, batch, result;
  bool sum_batches = false;  // addbmm
};

struct Planned {
  std::optional<ProductPlan> plan;
  Outcome otherwise;
};

Planned shape_error(const std::string& rule) { return {std::nullopt, refused(ErrorKind::matmul_shape, rule)}; }

Planned matmul_plan(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) return {std::nullopt, silent("matmul of a 0-d tensor (torch.matmul lists 1-D and up)")};
  if (a.size() == 1 && b.size() == 1) {
    if (a[0] != b[0]) return shape_error("[D6] a dot product of equal lengths");
    return {ProductPlan{{1, a[0]}, {b[0], 1}, {}, {}}, {}};
  }
  const Shape a2 = a.size() == 1 ? Shape{1, a[0]} : a, b2 = b.size() == 1 ? Shape{b[0], 1} : b;
  const std::optional<Shape> batch =
      broadcast_pair(Shape(a2.begin(), a2.end() - 2), Shape(b2.begin(), b2.end() - 2));
  const bool inner = a2.back() == b2[b2.size() - 2];
  if (!batch && !inner) return {std::nullopt, silent("which of matmul's checks comes first")};
  if (!batch) return {std::nullopt, refused(ErrorKind::broadcast, "[D6] matmul's batch dimensions broadcast")};
  if (!inner) return shape_error("[D6] (n, m) x (m, p)");
  Shape result = *batch;
  if (a.size() > 1) result.push_back(a2[a2.size() - 2]);
  if (b.size() > 1) result.push_back(b2.back());
  return {ProductPlan{a2, b2, *batch, result}, {}};
}

// The product's plan by the engine's product it computes (the op table's product_op; a fused op's is its product's).
Planned strict_plan(Op op, const Shape& a, const Shape& b) {
  const std::optional<ProductOp> product = product_op(op);
  if (!product) return {std::nullopt, silent(std::string("a product named ") + to_string(op))};
  switch (*product) {
    case ProductOp::matmul: return matmul_plan(a, b);
    case ProductOp::mm: case ProductOp::addmm:
      if (a.size() != 2 || b.size() != 2 || a[1] != b[0]) return shape_error("[D6] mm: (n, m) x (m, p)");
      return {ProductPlan{a, b, {}, {a[0], b[1]}}, {}};
    case ProductOp::bmm: case ProductOp::baddbmm: case ProductOp::addbmm: {
      if (a.size() != 3 || b.size() != 3 || a[0] != b[0] || a[2] != b[1])
        return shape_error("[D6] bmm: (b, n, m) x (b, m, p), no broadcasting");
      const bool sum = *product == ProductOp::addbmm;
      return {ProductPlan{a, b, {a[0]}, sum ? Shape{a[1], b[2]} : Shape{a[0], a[1], b[2]}, sum}, {}};
    }
    case ProductOp::mv: case ProductOp::addmv:
      if (a.size() != 2 || b.size() != 1 || a[1] != b[0]) return shape_error("[D6] mv: (n, m) x (m)");
      return {ProductPlan{a, {b[0], 1}, {}, {a[0]}}, {}};
    case ProductOp::dot:
      if (a.size() != 1 || b.size() != 1 || a[0] != b[0]) return shape_error("[D6] dot: two 1-D of one length");
      return {ProductPlan{{1, a[0]}, {b[0], 1}, {}, {}}, {}};
    case ProductOp::outer: case ProductOp::addr:
      if (a.size() != 1 || b.size() != 1) return shape_error("[D6] outer: two 1-D tensors");
      return {ProductPlan{{a[0], 1}, {1, b[0]}, {}, {a[0], b[0]}}, {}};
  }
  return {std::nullopt, silent(std::string("a product named ") + to_string(op))};
}

// Calls term(out, a, b) for every product term A[a] * B[b] that adds into element `out` of the result (in
// `plan.result` order; addbmm's batches add into one block), with a and b indices into the operands' own elements.
template <class F>
void for_each_term(const ProductPlan& plan, F term) {
  const int64_t n = plan.a[plan.a.size() - 2], m = plan.a.back(), p = plan.b.back();
  const std::vector<size_t> from_a = broadcast_sources(plan.batch, Shape(plan.a.begin(), plan.a.end() - 2));
  const std::vector<size_t> from_b = broadcast_sources(plan.batch, Shape(plan.b.begin(), plan.b.end() - 2));
  const size_t block = static_cast<size_t>(n * p);
  for (size_t t = 0; t < from_a.size(); ++t)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < p; ++j)
        for (int64_t k = 0; k < m; ++k)
          term((plan.sum_batches ? 0 : t * block) + static_cast<size_t>(i * p + j),
               from_a[t] * static_cast<size_t>(n * m) + static_cast<size_t>(i * m + k),
               from_b[t] * static_cast<size_t>(m * p) + static_cast<size_t>(k * p + j));
}

// The product's elements, summed exactly in double and rounded once to T.
template <class T>
std::vector<double> product_values(const ProductPlan& plan, const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> sums(static_cast<size_t>(numel(plan.result)), 0.0);
  for_each_term(plan, [&](size_t out, size_t i, size_t j) { sums[out] += a[i] * b[j]; });
  for (double& v : sums) v = static_cast<double>(static_cast<T>(v));
  return sums;
}

// [D10] d(A B)/dA = G B^T and d(A B)/dB = A^T G (batches summed back per [D5]); fused: alpha times those, and
// beta G summed back to C (nothing when beta is 0: C is ignored).
template <class T>
void product_grads(const Case& c, const Operands& o, const ProductPlan& plan, bool fused, Outcome& out) {
  const double alpha = fused ? scalar_of(c, "alpha").value : 1, beta = fused ? scalar_of(c, "beta").value : 0;
  const Values g = upstream_values(c, o.dtype, numel(plan.result));
  const size_t ka = fused ? 1 : 0, kb = ka + 1;
  std::vector<std::vector<double>> grads;
  for (const std::vector<double>& v : o.values) grads.emplace_back(v.size(), 0.0);
  for_each_term(plan, [&](size_t at, size_t i, size_t j) {
    grads[ka][i] += alpha * g.as_double(at) * o.values[kb][j];
    grads[kb][j] += alpha * g.as_double(at) * o.values[ka][i];
  });
  if (fused && beta != 0) {
    const std::vector<size_t> from_c = broadcast_sources(plan.result, o.shapes[0]);
    for (size_t at = 0; at < from_c.size(); ++at) grads[0][from_c[at]] += beta * g.as_double(at);
  }
  for (size_t k = 0; k < grads.size(); ++k) {
    if (!wants_grad(c, k)) {
      out.grads.push_back(std::nullopt);
      continue;
    }
    for (double& v : grads[k]) v = static_cast<double>(static_cast<T>(v));
    out.grads.push_back(Grad{o.shapes[k], to_string(o.dtype), stored(grads[k])});
  }
}

// The rank of the fused op's product, for C's check when the product itself is refused.
size_t fused_rank(Op op) {
  switch (*product_op(op)) {
    case ProductOp::addmv: return 1;
    case ProductOp::baddbmm: return 3;
    case ProductOp::addmm: case ProductOp::addr: case ProductOp::addbmm: return 2;
    case ProductOp::matmul: case ProductOp::mm: case ProductOp::bmm: case ProductOp::mv: case ProductOp::dot:
    case ProductOp::outer: break;  // not fused: product() asks only for fused ops
  }
  return 0;
}

template <class T>
Outcome run_product(const Case& c, const Operands& o, const ProductPlan& plan, bool fused) {
  Outcome out = Outcome::success(plan.result, to_string(o.dtype));
  if (!c.values && !is_gradient_case(c)) return out;
  std::vector<double> v = product_values<T>(plan, o.values[fused ? 1 : 0], o.values[fused ? 2 : 1]);
  if (fused) {
    const T beta = static_cast<T>(scalar_of(c, "beta").value), alpha = static_cast<T>(scalar_of(c, "alpha").value);
    const std::vector<size_t> from_c = broadcast_sources(plan.result, o.shapes[0]);
    for (size_t i = 0; i < v.size(); ++i) {
      const T product = alpha * static_cast<T>(v[i]);  // beta = 0: C is ignored, its NaN and inf too
      v[i] = static_cast<double>(beta == 0 ? product : beta * static_cast<T>(o.values[0][from_c[i]]) + product);
    }
  }
  if (c.values) out.values = stored(v);
  if (is_gradient_case(c)) product_grads<T>(c, o, plan, fused, out);
  return out;
}

}  // namespace

Outcome product(const Case& c, Op op, bool fused) {
  const std::optional<DType> dtype = shared_floating_dtype(c, 0);
  if (!dtype) return silent("type promotion in the products (one float32 or float64 only)");
  if (c.modify) return silent("autograd's rules for an input written in place before backward");
  if (is_inplace(op) && is_gradient_case(c)) return silent("autograd's rules for an op written in place");
  const Operands o = operands_of(c, *dtype);
  const Planned planned = strict_plan(op, o.shapes[fused ? 1 : 0], o.shapes[fused ? 2 : 1]);
  if (fused) {
    const Shape& cs = o.shapes[0];
    if (is_inplace(op) && inplace_memory_undocumented(o)) return silent(kMemoryRules);
    if (!planned.plan) {
      const bool ones = !cs.empty() && cs.size() <= fused_rank(op) &&
                        std::all_of(cs.begin(), cs.end(), [](int64_t s) { return s == 1; });
      if (ones && !is_inplace(op)) return planned.otherwise;  // C broadcasts to any product: only one check fails
      return silent("which of the fused product's checks comes first");
    }
    const Shape& want = planned.plan->result;
    if (is_inplace(op)) {
      if (cs != want) return refused(ErrorKind::inplace_shape, "[D3] C keeps its shape in place");
    } else if (cs != want) {
      if (cs.empty()) return refused(ErrorKind::broadcast, "[D2] each tensor must have at least one dimension");
      if (!expands_to(cs, want)) return refused(ErrorKind::expand, "[D7] C broadcasts to the product's shape");
    }
  } else if (!planned.plan) {
    return planned.otherwise;
  }
  return *dtype == DType::float32 ? run_product<float>(c, o, *planned.plan, fused)
                                  : run_product<double>(c, o, *planned.plan, fused);
}

}  // namespace bc::documents
