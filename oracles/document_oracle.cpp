#include "oracles/document_oracle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "harness/operands.h"

// The rows [D1] ... [D11] cited below are those of docs/notes/document-voter.md, which names each rule's document.
// Nothing here calls the engine's code: the rules are restated from the documents, small and on purpose naive.

namespace bc {
namespace {

// An error the documents predict: its kind and the rule's row, never a library's message.
Outcome refused(ErrorKind kind, const std::string& rule) { return Outcome::failure(kind, "the documents: " + rule); }
Outcome silent(const std::string& what) { return Outcome::unsupported_because("no document states " + what); }

// ---------------------------------------------------------------------------------------------------------------
// Shapes

// [D1] Compared from the trailing dimension, each pair of sizes is equal, or one is 1, or one is missing; the
// result takes the size that is not 1 (seed 000's infer_size, NumPy's broadcasting page).
std::optional<Shape> broadcast_pair(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t k = 0; k < rank; ++k) {  // k counts from the trailing dimension
    const int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1;
    const int64_t y = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[rank - 1 - k] = x == 1 ? y : x;
  }
  return out;
}

// [D1] + [D2]: tensors broadcast together. Tensors of one shape need no broadcasting (seed 003: "same shapes are
// always broadcastable"); otherwise each needs at least one dimension (seeds 003 and 001).
Result<Shape> broadcast_tensors(const std::vector<Shape>& shapes) {
  if (std::all_of(shapes.begin(), shapes.end(), [&](const Shape& s) { return s == shapes.front(); }))
    return shapes.front();
  for (const Shape& s : shapes)
    if (s.empty()) return Error{ErrorKind::broadcast, "[D2] each tensor must have at least one dimension"};
  Shape out = shapes.front();
  for (size_t k = 1; k < shapes.size(); ++k) {
    std::optional<Shape> next = broadcast_pair(out, shapes[k]);
    if (!next) return Error{ErrorKind::broadcast, "[D1] sizes differ where neither is 1"};
    out = *next;
  }
  return out;
}

// Whether `small` expands to `big`: no more dims, and each trailing size equal or 1 ([D5], [D7]).
bool expands_to(const Shape& small, const Shape& big) {
  if (small.size() > big.size()) return false;
  for (size_t k = 0; k < small.size(); ++k) {
    const int64_t s = small[small.size() - 1 - k], b = big[big.size() - 1 - k];
    if (s != b && s != 1) return false;
  }
  return true;
}

// [D4] Tensor.expand: -1 keeps a size; new dims go in front and cannot be -1; only singleton dims grow.
Outcome expand_outcome(const Shape& self, const Shape& target) {
  if (target.size() < self.size()) return refused(ErrorKind::expand, "[D4] a size for every dimension");
  const size_t lead = target.size() - self.size();
  Shape out(target.size());
  bool undocumented = false;
  for (size_t k = 0; k < target.size(); ++k) {
    const int64_t want = target[k];
    undocumented = undocumented || want < -1;
    if (k < lead) {
      if (want == -1) return refused(ErrorKind::expand, "[D4] -1 in a new leading dimension");
      out[k] = want;
      continue;
    }
    const int64_t have = self[k - lead];
    if (want == -1 || want == have) {
      out[k] = have;
    } else if (have == 1) {
      undocumented = undocumented || want == 0;  // "expanded to a larger size": 0 is not larger
      out[k] = want;
    } else {
      return refused(ErrorKind::expand, "[D4] only singleton dimensions expand");
    }
  }
  if (undocumented) return silent("expand to a size below -1, or a singleton to size 0");
  return Outcome::success(out);
}

// [D5] A gradient summed back to an input's shape: the input's shape must expand to the gradient's.
Outcome sum_to_outcome(const Shape& from, const Shape& to) {
  if (!expands_to(to, from)) return refused(ErrorKind::sum_to, "[D5] the shape must expand to the gradient's");
  return Outcome::success(to);
}

// For each element of a tensor of shape `out` (row-major), the element of shape `in` that broadcasting reads
// ([D1]: a size-1 or missing dim repeats its one element). `in` has at most `out`'s rank.
std::vector<size_t> broadcast_sources(const Shape& out, const Shape& in) {
  std::vector<size_t> sources(static_cast<size_t>(numel(out)));
  const Shape strides = contiguous_strides(in);
  const size_t lead = out.size() - in.size();
  Shape index(out.size(), 0);
  for (size_t& source : sources) {
    int64_t at = 0;
    for (size_t d = 0; d < in.size(); ++d)
      if (in[d] != 1) at += index[lead + d] * strides[d];
    source = static_cast<size_t>(at);
    for (size_t d = out.size(); d-- > 0;) {
      if (++index[d] < out[d]) break;
      index[d] = 0;
    }
  }
  return sources;
}

// ---------------------------------------------------------------------------------------------------------------
// Operands

struct Operands {
  std::vector<Shape> shapes;
  std::vector<std::vector<double>> values;  // row-major, as the op sees them (harness/operands.h)
  std::vector<Layout> layouts;              // as built
  DType dtype = DType::float32;             // the one floating dtype they share (a where's condition aside)
};

Operands operands_of(const Case& c, DType dtype) {
  Operands o{c.shapes, {}, {}, dtype};
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < plans.size(); ++k) {
    o.values.push_back(seen_values(plans, k).to_doubles());
    o.layouts.push_back(plans[k].layout);
  }
  return o;
}

// The one floating dtype of operands [first, end), or nullopt ([D11]: no document states type promotion).
std::optional<DType> shared_floating_dtype(const Case& c, size_t first) {
  const DType t = dtype_of(c, first);
  if (t != DType::float32 && t != DType::float64) return std::nullopt;
  for (size_t k = first; k < c.shapes.size(); ++k)
    if (dtype_of(c, k) != t) return std::nullopt;
  return t;
}

bool wants_grad(const Case& c, size_t k) { return k < c.requires_grad.size() && c.requires_grad[k]; }

// [D11] In place, the documents state the shape rule only: nothing about self's elements sharing memory with each
// other (an expanded self) or with another operand.
const char* const kMemoryRules = "in-place rules for self-overlapping or shared memory";
bool inplace_memory_undocumented(const Operands& o) {
  if (o.layouts[0] == Layout::expanded) return true;
  return std::any_of(o.layouts.begin(), o.layouts.end(), [](Layout l) { return l == Layout::overlapping; });
}

Values stored(const std::vector<double>& v) { return Values(v); }

// ---------------------------------------------------------------------------------------------------------------
// Pointwise formulas ([D7], [D8]) and their textbook derivatives ([D10])

enum class Formula {
  add, sub, mul, div, pow, atan2, fmod, remainder, maximum, minimum, eq, ne, lt, le, gt, ge, hypot,
  lerp, where, addcmul, addcdiv, diamond, dist,
};

// The formula of a pointwise op (in place, unfused and fused alike: seed 003's equivalence), or nullopt for the
// shape rules and the products.
std::optional<Formula> formula_of(Op op) {
  switch (op) {
    case Op::add: case Op::add_: return Formula::add;
    case Op::sub: case Op::sub_: return Formula::sub;
    case Op::mul: case Op::mul_: return Formula::mul;
    case Op::div: case Op::div_: return Formula::div;
    case Op::pow: case Op::pow_: return Formula::pow;
    case Op::atan2: case Op::atan2_: return Formula::atan2;
    case Op::fmod: case Op::fmod_: return Formula::fmod;
    case Op::remainder: case Op::remainder_: return Formula::remainder;
    case Op::maximum: return Formula::maximum;
    case Op::minimum: return Formula::minimum;
    case Op::eq: case Op::eq_: return Formula::eq;
    case Op::ne: case Op::ne_: return Formula::ne;
    case Op::lt: case Op::lt_: return Formula::lt;
    case Op::le: case Op::le_: return Formula::le;
    case Op::gt: case Op::gt_: return Formula::gt;
    case Op::ge: case Op::ge_: return Formula::ge;
    case Op::hypot: case Op::hypot_: return Formula::hypot;
    case Op::lerp: case Op::lerp_: return Formula::lerp;
    case Op::where: return Formula::where;
    case Op::addcmul: case Op::addcmul_: case Op::unfused_addcmul: case Op::unfused_addcmul_:
      return Formula::addcmul;
    case Op::addcdiv: case Op::addcdiv_: case Op::unfused_addcdiv: case Op::unfused_addcdiv_:
      return Formula::addcdiv;
    case Op::diamond: return Formula::diamond;
    case Op::dist: return Formula::dist;
    // No seed document speaks of one-operand ops; their broadcasting is trivial and their formulas are the
    // libraries' own pages, which the implementations already follow.
    case Op::neg: case Op::abs: case Op::sqrt: case Op::exp: case Op::log: case Op::sign: case Op::reciprocal:
      return std::nullopt;
    // Floor division is in no seed document (003 lists the pointwise ops of 2017, before floor_divide).
    case Op::floor_divide: case Op::floor_divide_:
      return std::nullopt;
    // Nor is fill_ or zero_ (an op on self alone; seed 003's in-place section speaks of ops with operands).
    case Op::fill_: case Op::zero_:
      return std::nullopt;
    case Op::broadcast_shapes: case Op::expand: case Op::sum_to: case Op::matmul: case Op::mm: case Op::bmm:
    case Op::mv: case Op::dot: case Op::outer: case Op::addmm: case Op::addmv: case Op::addr: case Op::baddbmm:
    case Op::addbmm: case Op::addmm_: case Op::addmv_: case Op::addr_: case Op::baddbmm_: case Op::addbmm_:
    case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod:
      return std::nullopt;
    // A program of ops: no document states how a composition of ops behaves beyond each op's own rule.
    case Op::graph:
      return std::nullopt;
  }
  return std::nullopt;
}

bool is_comparison(Formula f) {
  switch (f) {
    case Formula::eq: case Formula::ne: case Formula::lt: case Formula::le: case Formula::gt: case Formula::ge:
      return true;
    case Formula::add: case Formula::sub: case Formula::mul: case Formula::div: case Formula::pow:
    case Formula::atan2: case Formula::fmod: case Formula::remainder: case Formula::maximum:
    case Formula::minimum: case Formula::hypot: case Formula::lerp: case Formula::where: case Formula::addcmul:
    case Formula::addcdiv: case Formula::diamond: case Formula::dist:
      return false;
  }
  return false;
}

struct Scalars {
  double alpha = 1, value = 1;
};

// One element of the result, computed in the tensors' dtype T. x, y, z are the operands in the case's order.
template <class T>
T value_at(Formula f, T x, T y, T z, const Scalars& s) {
  switch (f) {
    case Formula::add: return x + static_cast<T>(s.alpha) * y;
    case Formula::sub: return x - static_cast<T>(s.alpha) * y;
    case Formula::mul: return x * y;
    case Formula::div: return x / y;
    case Formula::pow: return std::pow(x, y);
    case Formula::atan2: return std::atan2(x, y);
    case Formula::fmod: return std::fmod(x, y);
    case Formula::remainder: return x - std::floor(x / y) * y;
    case Formula::maximum: return std::isnan(x) ? x : std::isnan(y) ? y : (x > y ? x : y);
    case Formula::minimum: return std::isnan(x) ? x : std::isnan(y) ? y : (x < y ? x : y);
    case Formula::eq: return x == y;
    case Formula::ne: return x != y;
    case Formula::lt: return x < y;
    case Formula::le: return x <= y;
    case Formula::gt: return x > y;
    case Formula::ge: return x >= y;
    case Formula::hypot: return std::hypot(x, y);
    case Formula::lerp: return x + z * (y - x);
    case Formula::where: return x != 0 ? y : z;
    case Formula::addcmul: return x + static_cast<T>(s.value) * y * z;
    case Formula::addcdiv: return x + static_cast<T>(s.value) * y / z;
    case Formula::diamond: return (x + y) * x;
    case Formula::dist: return x - y;  // the difference; run_pointwise takes the norm
  }
  return x;
}

// The partial derivatives of one element with respect to each operand, where a textbook states them; nullopt
// where the derivative does not exist or no document states which one-sided value to take ([D10]).
template <class T>
std::array<std::optional<T>, 3> partials_at(Formula f, T x, T y, T z, const Scalars& s) {
  using P = std::array<std::optional<T>, 3>;
  const P none{};
  const T alpha = static_cast<T>(s.alpha), v = static_cast<T>(s.value);
  const auto integral = [](T q) { return q != 0 && std::floor(q) == q; };
  switch (f) {
    case Formula::add: return P{T(1), alpha, T(0)};
    case Formula::sub: return P{T(1), -alpha, T(0)};
    case Formula::mul: return P{y, x, T(0)};
    case Formula::div:
      if (y == 0) return none;
      return P{1 / y, -x / (y * y), T(0)};
    case Formula::pow: {
      // d/dx x^y = y x^(y-1), and x^0 = 1 is constant in x; d/dy x^y = x^y ln x, and 0^y = 0 for every y > 0.
      P d = none;
      if (y == 0) d[0] = T(0);
      else if (x > 0 || (x == 0 && y >= 1) || (x < 0 && std::floor(y) == y)) d[0] = y * std::pow(x, y - 1);
      if (x > 0) d[1] = std::pow(x, y) * std::log(x);
      else if (x == 0 && y > 0) d[1] = T(0);
      return d;
    }
    case Formula::atan2: {
      const T r = x * x + y * y;
      if (r == 0) return none;
      return P{y / r, -x / r, T(0)};
    }
    case Formula::hypot: {
      const T h = std::hypot(x, y);
      if (h == 0) return none;
      return P{x / h, y / h, T(0)};
    }
    case Formula::fmod:
      if (y == 0 || integral(x / y)) return none;
      return P{T(1), -std::trunc(x / y), T(0)};
    case Formula::remainder:
      if (y == 0 || integral(x / y)) return none;
      return P{T(1), -std::floor(x / y), T(0)};
    case Formula::maximum:
      if (std::isnan(x) || std::isnan(y) || x == y) return none;
      return x > y ? P{T(1), T(0), T(0)} : P{T(0), T(1), T(0)};
    case Formula::minimum:
      if (std::isnan(x) || std::isnan(y) || x == y) return none;
      return x < y ? P{T(1), T(0), T(0)} : P{T(0), T(1), T(0)};
    case Formula::lerp: return P{1 - z, z, y - x};
    case Formula::where: return x != 0 ? P{std::nullopt, T(1), T(0)} : P{std::nullopt, T(0), T(1)};
    case Formula::addcmul: return P{T(1), v * z, v * y};
    case Formula::addcdiv:
      if (z == 0) return none;
      return P{T(1), v / z, -v * y / (z * z)};
    case Formula::diamond: return P{2 * x + y, x, T(0)};
    case Formula::dist: return P{T(1), T(-1), T(0)};  // of the difference; run_pointwise scales by (x - y) / norm
    case Formula::eq: case Formula::ne: case Formula::lt: case Formula::le: case Formula::gt: case Formula::ge:
      return none;
  }
  return none;
}

// The pointwise program: shape ([D1], [D2], [D3]), values in dtype T, gradients summed back to each operand's shape
// ([D5]: seed 000).
template <class T>
Outcome run_pointwise(const Case& c, Op op, Formula f, const Operands& o, const Shape& shape) {
  const bool inplace = is_inplace(op), comparison = is_comparison(f) && !inplace;
  const Scalars s{scalar_of(c, "alpha").value, scalar_of(c, "value").value};
  const size_t n = o.shapes.size();
  std::vector<std::vector<size_t>> sources;
  for (const Shape& in : o.shapes) sources.push_back(broadcast_sources(shape, in));
  const auto operand = [&](size_t k, size_t i) { return k < n ? static_cast<T>(o.values[k][sources[k][i]]) : T(0); };

  const size_t count = static_cast<size_t>(numel(shape));
  std::vector<T> result(count);
  for (size_t i = 0; i < count; ++i) result[i] = value_at<T>(f, operand(0, i), operand(1, i), operand(2, i), s);

  const bool reduces = f == Formula::dist;
  double norm = 0;
  if (reduces) {
    for (T d : result) norm += static_cast<double>(d) * static_cast<double>(d);
    norm = static_cast<double>(static_cast<T>(std::sqrt(norm)));
  }
  const Shape out_shape = reduces ? Shape{} : shape;
  const std::string dtype = comparison ? "bool" : to_string(o.dtype);
  Outcome out = Outcome::success(out_shape, dtype);
  if (c.values) {
    if (reduces) {
      out.values = stored({norm});
    } else if (comparison) {
      std::vector<int64_t> bits;
      for (T r : result) bits.push_back(r != 0 ? 1 : 0);
      out.values = Values(std::move(bits));
    } else {
      out.values = stored(std::vector<double>(result.begin(), result.end()));
    }
  }
  if (!is_gradient_case(c)) return out;

  if (comparison) return silent("a gradient through a comparison (its result is bool)");
  if (f == Formula::where && wants_grad(c, 0)) return silent("a gradient for where's bool condition");
  if (reduces && norm == 0) return silent("the gradient of a 2-norm at zero");
  const Values upstream = upstream_values(c, o.dtype, numel(out_shape));
  std::vector<std::vector<double>> grads;
  for (const Shape& in : o.shapes) grads.emplace_back(static_cast<size_t>(numel(in)), 0.0);
  for (size_t i = 0; i < count; ++i) {
    const std::array<std::optional<T>, 3> d = partials_at<T>(f, operand(0, i), operand(1, i), operand(2, i), s);
    T g = static_cast<T>(upstream.as_double(reduces ? 0 : i));
    if (reduces) g = g * result[i] / static_cast<T>(norm);
    for (size_t k = 0; k < n; ++k) {
      if (!wants_grad(c, k)) continue;
      if (!d[k]) return silent(std::string("the derivative of ") + to_string(c.op) + " here (a pole, a tie, a jump or NaN)");
      grads[k][sources[k][i]] += static_cast<double>(g * *d[k]);
    }
  }
  for (size_t k = 0; k < n; ++k) {
    if (!wants_grad(c, k)) {
      out.grads.push_back(std::nullopt);
      continue;
    }
    std::vector<double> rounded;
    for (double g : grads[k]) rounded.push_back(static_cast<double>(static_cast<T>(g)));
    out.grads.push_back(Grad{o.shapes[k], to_string(o.dtype), stored(rounded)});
  }
  return out;
}

Outcome pointwise(const Case& c, Op op, Formula f) {
  const bool where = f == Formula::where;
  if (where && dtype_of(c, 0) != DType::bool_) return silent("where with a condition that is not bool");
  const std::optional<DType> dtype = shared_floating_dtype(c, where ? 1 : 0);
  if (!dtype) return silent("type promotion, nor arithmetic on integers or bool (one float32 or float64 only)");
  if (c.modify) return silent("autograd's rules for an input written in place before backward");
  if (is_inplace(op) && is_gradient_case(c)) return silent("autograd's rules for an op written in place");
  const Operands o = operands_of(c, *dtype);
  // Before the shape rules: no document says whether the memory rules come first.
  if (is_inplace(op) && inplace_memory_undocumented(o)) return silent(kMemoryRules);
  const Result<Shape> shape = broadcast_tensors(o.shapes);
  if (!shape.ok()) return refused(shape.error().kind, shape.error().message);
  if (is_inplace(op) && shape.value() != o.shapes[0]) return refused(ErrorKind::inplace_shape, "[D3] self keeps its shape");
  if (f == Formula::remainder)
    for (size_t k = 0; k < 2; ++k)
      for (double x : o.values[k])
        if (std::isinf(x)) return silent("the remainder of an infinity (torch.remainder's pages disagree there)");
  if (f == Formula::maximum || f == Formula::minimum) {
    const std::vector<size_t> a = broadcast_sources(shape.value(), o.shapes[0]);
    const std::vector<size_t> b = broadcast_sources(shape.value(), o.shapes[1]);
    for (size_t i = 0; i < a.size(); ++i) {
      const double x = o.values[0][a[i]], y = o.values[1][b[i]];
      if (x == y && std::signbit(x) != std::signbit(y)) return silent("which zero maximum/minimum of -0.0 and 0.0 is");
    }
  }
  return *dtype == DType::float32 ? run_pointwise<float>(c, op, f, o, shape.value())
                                  : run_pointwise<double>(c, op, f, o, shape.value());
}

// ---------------------------------------------------------------------------------------------------------------
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

Planned strict_plan(Op op, const Shape& a, const Shape& b) {
  switch (op) {
    case Op::matmul: return matmul_plan(a, b);
    case Op::mm: case Op::addmm: case Op::addmm_:
      if (a.size() != 2 || b.size() != 2 || a[1] != b[0]) return shape_error("[D6] mm: (n, m) x (m, p)");
      return {ProductPlan{a, b, {}, {a[0], b[1]}}, {}};
    case Op::bmm: case Op::baddbmm: case Op::baddbmm_: case Op::addbmm: case Op::addbmm_: {
      if (a.size() != 3 || b.size() != 3 || a[0] != b[0] || a[2] != b[1])
        return shape_error("[D6] bmm: (b, n, m) x (b, m, p), no broadcasting");
      const bool sum = out_of_place(op) == Op::addbmm;
      return {ProductPlan{a, b, {a[0]}, sum ? Shape{a[1], b[2]} : Shape{a[0], a[1], b[2]}, sum}, {}};
    }
    case Op::mv: case Op::addmv: case Op::addmv_:
      if (a.size() != 2 || b.size() != 1 || a[1] != b[0]) return shape_error("[D6] mv: (n, m) x (m)");
      return {ProductPlan{a, {b[0], 1}, {}, {a[0]}}, {}};
    case Op::dot:
      if (a.size() != 1 || b.size() != 1 || a[0] != b[0]) return shape_error("[D6] dot: two 1-D of one length");
      return {ProductPlan{{1, a[0]}, {b[0], 1}, {}, {}}, {}};
    case Op::outer: case Op::addr: case Op::addr_:
      if (a.size() != 1 || b.size() != 1) return shape_error("[D6] outer: two 1-D tensors");
      return {ProductPlan{{a[0], 1}, {1, b[0]}, {}, {a[0], b[0]}}, {}};
    case Op::neg: case Op::abs: case Op::sqrt: case Op::exp: case Op::log: case Op::sign: case Op::reciprocal:
    case Op::add: case Op::sub: case Op::mul: case Op::div: case Op::pow: case Op::atan2: case Op::fmod:
    case Op::remainder: case Op::maximum: case Op::minimum: case Op::eq: case Op::ne: case Op::lt: case Op::le:
    case Op::gt: case Op::ge: case Op::hypot: case Op::add_: case Op::sub_: case Op::mul_: case Op::div_:
    case Op::pow_: case Op::atan2_: case Op::fmod_: case Op::remainder_: case Op::eq_: case Op::ne_: case Op::lt_:
    case Op::le_: case Op::gt_: case Op::ge_: case Op::hypot_: case Op::lerp: case Op::lerp_: case Op::where:
    case Op::addcmul: case Op::addcdiv: case Op::addcmul_: case Op::addcdiv_: case Op::unfused_addcmul:
    case Op::unfused_addcdiv: case Op::unfused_addcmul_: case Op::unfused_addcdiv_: case Op::broadcast_shapes:
    case Op::expand: case Op::sum_to: case Op::diamond: case Op::dist: case Op::graph: case Op::floor_divide:
    case Op::floor_divide_: case Op::sum: case Op::mean: case Op::amax: case Op::amin: case Op::prod:
    case Op::fill_: case Op::zero_:
      break;
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
  const Op base = out_of_place(op);
  return base == Op::addmv ? 1 : base == Op::baddbmm ? 3 : 2;
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

// ---------------------------------------------------------------------------------------------------------------

Outcome from_result(const Result<Shape>& r) {
  if (r.ok()) return Outcome::success(r.value());
  return refused(r.error().kind, r.error().message);
}

class DocumentOracle : public Oracle {
 public:
  std::string name() const override { return "documents"; }
  std::string version() const override { return "seeds 000-004, PyTorch 1.13 and NumPy documentation"; }
  Outcome run(const Case& c) override {
    const OpEntry* e = &entry(c.op);
    // No seed document speaks of out= arguments (their resize and cast rules are LibTorch's own).
    if (c.out) return Outcome::unsupported_because("no document states the out= form's rules");
    switch (e->family) {
      case Family::broadcast_shapes: {
        if (c.shapes.empty()) return silent("the broadcast of no shapes");
        for (const Shape& shape : c.shapes)
          if (std::any_of(shape.begin(), shape.end(), [](int64_t size) { return size < 0; }))
            return silent("a negative size");
        return from_result(broadcast_tensors(c.shapes));
      }
      case Family::expand: return expand_outcome(c.shapes[0], c.shapes[1]);
      case Family::sum_to: return sum_to_outcome(c.shapes[0], c.shapes[1]);
      case Family::matmul: return product(c, e->op, false);
      case Family::fused: return product(c, e->op, true);
      case Family::elementwise: case Family::inplace: case Family::unfused: case Family::autograd:
      case Family::reduction: {
        const std::optional<Formula> f = formula_of(e->op);
        if (!f) return silent(std::string("a pointwise formula for ") + e->name);
        return pointwise(c, e->op, *f);
      }
      // Seed 003 says only that reductions' keepdim defaults to False; no document states what a list of dims
      // (empty, negative, repeated) or dtype= does.
      case Family::reduce_dims: return silent(std::string("the rule of a reduction over a list of dims (") + e->name + ")");
      // No document states what writing one value into a self whose elements share memory does.
      case Family::fill: return silent(std::string("the rule of ") + e->name + " (one value written into self)");
    }
    return silent(std::string("a rule for ") + e->name);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_document_oracle() { return std::make_unique<DocumentOracle>(); }

}  // namespace bc
