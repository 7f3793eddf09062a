#include "oracles/document_oracle.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "oracles/binding_table.h"
#include "oracles/document_pointwise.h"
#include "oracles/document_products.h"
#include "oracles/document_shapes.h"

// The rows [D1] ... [D11] cited below are those of docs/notes/document-voter.md, which names each rule's document.
// Nothing here calls the engine's code: the rules are restated from the documents, small and on purpose naive.

namespace bc {
namespace {

using namespace documents;

// The documents' binding of one op: its pointwise formula, its shape rule, its product's rule, or the rule no
// document states ("a pointwise formula for", "the rule of ..."), which the voter answers unsupported, naming the op.
struct DocumentRow {
  std::optional<Formula> formula;
  Outcome (*rule)(const Case& c) = nullptr;
  bool product = false;
  std::string silent_about;  // + the op's name
  std::string silent_after;  // after the op's name
};
DocumentRow pointwise_row(Formula f) { return {f, nullptr, false, "", ""}; }
DocumentRow shape_rule(Outcome (*rule)(const Case& c)) { return {std::nullopt, rule, false, "", ""}; }
DocumentRow silent_on(std::string about, std::string after = "") {
  return {std::nullopt, nullptr, false, std::move(about), std::move(after)};
}

template <class T>
Partials<T> none() { return {}; }
template <class T>
bool integral(T q) { return q != 0 && std::floor(q) == q; }

// [D1] + [D2], with the silences of torch.broadcast_shapes' pages.
Outcome broadcast_shapes_rule(const Case& c) {
  if (c.shapes.empty()) return silent("the broadcast of no shapes");
  for (const Shape& shape : c.shapes)
    if (std::any_of(shape.begin(), shape.end(), [](int64_t size) { return size < 0; })) return silent("a negative size");
  return from_result(broadcast_tensors(c.shapes));
}

std::optional<std::string> infinite_remainder(const Operands& o, const Shape&) {
  for (size_t k = 0; k < 2; ++k)
    for (double x : o.values[k])
      if (std::isinf(x)) return "the remainder of an infinity (torch.remainder's pages disagree there)";
  return std::nullopt;
}
std::optional<std::string> zeros_of_both_signs(const Operands& o, const Shape& shape) {
  const std::vector<size_t> a = broadcast_sources(shape, o.shapes[0]), b = broadcast_sources(shape, o.shapes[1]);
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = o.values[0][a[i]], y = o.values[1][b[i]];
    if (x == y && std::signbit(x) != std::signbit(y)) return "which zero maximum/minimum of -0.0 and 0.0 is";
  }
  return std::nullopt;
}

// addcmul's and addcdiv's formulas, which their unfused forms share (seed 003's equivalence).
Formula addcmul_formula() {
  return formula([](auto x, auto y, auto z, const Scalars& s) -> decltype(x) { return x + static_cast<decltype(x)>(s.value) * y * z; },
                 [](auto, auto y, auto z, const Scalars& s) -> Partials<decltype(y)> {
                   using T = decltype(y);
                   return {T(1), static_cast<T>(s.value) * z, static_cast<T>(s.value) * y};
                 });
}
Formula addcdiv_formula() {
  return formula([](auto x, auto y, auto z, const Scalars& s) -> decltype(x) { return x + static_cast<decltype(x)>(s.value) * y / z; },
                 [](auto, auto y, auto z, const Scalars& s) -> Partials<decltype(y)> {
                   using T = decltype(y);
                   const T v = static_cast<T>(s.value);
                   if (z == 0) return none<T>();
                   return {T(1), v / z, -v * y / (z * z)};
                 });
}
// A comparison's value (1 or 0); its result is bool, so it has no derivative.
template <class C>
Formula comparison(C compare) {
  return formula(compare, [](auto x, auto, auto, const Scalars&) { return none<decltype(x)>(); });
}

// The binding table: each op's formula (the value of one element and its partial derivatives [D10]) or rule.
std::vector<BindingTable<DocumentRow>::Cell> cells() {
  using C = BindingTable<DocumentRow>::Cell;
  std::vector<C> cells = {
      {Op::add, pointwise_row(formula(
                    [](auto x, auto y, auto, const Scalars& s) -> decltype(x) { return x + static_cast<decltype(x)>(s.alpha) * y; },
                    [](auto x, auto, auto, const Scalars& s) -> Partials<decltype(x)> {
                      using T = decltype(x);
                      return {T(1), static_cast<T>(s.alpha), T(0)};
                    }))},
      {Op::sub, pointwise_row(formula(
                    [](auto x, auto y, auto, const Scalars& s) -> decltype(x) { return x - static_cast<decltype(x)>(s.alpha) * y; },
                    [](auto x, auto, auto, const Scalars& s) -> Partials<decltype(x)> {
                      using T = decltype(x);
                      return {T(1), -static_cast<T>(s.alpha), T(0)};
                    }))},
      {Op::mul, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x * y; },
                                      [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                        return {y, x, decltype(x)(0)};
                                      }))},
      {Op::div, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x / y; },
                                      [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                        using T = decltype(x);
                                        if (y == 0) return none<T>();
                                        return {1 / y, -x / (y * y), T(0)};
                                      }))},
      // d/dx x^y = y x^(y-1), and x^0 = 1 is constant in x; d/dy x^y = x^y ln x, and 0^y = 0 for every y > 0.
      {Op::pow, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return std::pow(x, y); },
                                      [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                        using T = decltype(x);
                                        Partials<T> d = none<T>();
                                        if (y == 0) d[0] = T(0);
                                        else if (x > 0 || (x == 0 && y >= 1) || (x < 0 && std::floor(y) == y))
                                          d[0] = y * std::pow(x, y - 1);
                                        if (x > 0) d[1] = std::pow(x, y) * std::log(x);
                                        else if (x == 0 && y > 0) d[1] = T(0);
                                        return d;
                                      }))},
      {Op::atan2, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return std::atan2(x, y); },
                                        [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                          using T = decltype(x);
                                          const T r = x * x + y * y;
                                          if (r == 0) return none<T>();
                                          return {y / r, -x / r, T(0)};
                                        }))},
      {Op::fmod, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return std::fmod(x, y); },
                                       [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                         using T = decltype(x);
                                         if (y == 0 || integral(x / y)) return none<T>();
                                         return {T(1), -std::trunc(x / y), T(0)};
                                       }))},
      {Op::remainder, pointwise_row(formula(
                          [](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x - std::floor(x / y) * y; },
                          [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                            using T = decltype(x);
                            if (y == 0 || integral(x / y)) return none<T>();
                            return {T(1), -std::floor(x / y), T(0)};
                          },
                          infinite_remainder))},
      {Op::maximum, pointwise_row(formula(
                        [](auto x, auto y, auto, const Scalars&) -> decltype(x) {
                          return std::isnan(x) ? x : std::isnan(y) ? y : (x > y ? x : y);
                        },
                        [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                          using T = decltype(x);
                          if (std::isnan(x) || std::isnan(y) || x == y) return none<T>();
                          return x > y ? Partials<T>{T(1), T(0), T(0)} : Partials<T>{T(0), T(1), T(0)};
                        },
                        zeros_of_both_signs))},
      {Op::minimum, pointwise_row(formula(
                        [](auto x, auto y, auto, const Scalars&) -> decltype(x) {
                          return std::isnan(x) ? x : std::isnan(y) ? y : (x < y ? x : y);
                        },
                        [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                          using T = decltype(x);
                          if (std::isnan(x) || std::isnan(y) || x == y) return none<T>();
                          return x < y ? Partials<T>{T(1), T(0), T(0)} : Partials<T>{T(0), T(1), T(0)};
                        },
                        zeros_of_both_signs))},
      {Op::eq, pointwise_row(comparison([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x == y; }))},
      {Op::ne, pointwise_row(comparison([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x != y; }))},
      {Op::lt, pointwise_row(comparison([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x < y; }))},
      {Op::le, pointwise_row(comparison([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x <= y; }))},
      {Op::gt, pointwise_row(comparison([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x > y; }))},
      {Op::ge, pointwise_row(comparison([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x >= y; }))},
      {Op::hypot, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return std::hypot(x, y); },
                                        [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                          using T = decltype(x);
                                          const T h = std::hypot(x, y);
                                          if (h == 0) return none<T>();
                                          return {x / h, y / h, T(0)};
                                        }))},
      {Op::lerp, pointwise_row(formula([](auto x, auto y, auto z, const Scalars&) -> decltype(x) { return x + z * (y - x); },
                                       [](auto x, auto y, auto z, const Scalars&) -> Partials<decltype(x)> {
                                         return {1 - z, z, y - x};
                                       }))},
      // where's condition has no derivative (run_pointwise refuses a gradient for it).
      {Op::where, pointwise_row(formula([](auto x, auto y, auto z, const Scalars&) -> decltype(x) { return x != 0 ? y : z; },
                                        [](auto x, auto, auto, const Scalars&) -> Partials<decltype(x)> {
                                          using T = decltype(x);
                                          return x != 0 ? Partials<T>{std::nullopt, T(1), T(0)}
                                                        : Partials<T>{std::nullopt, T(0), T(1)};
                                        }))},
      {Op::addcmul, pointwise_row(addcmul_formula())},
      {Op::addcdiv, pointwise_row(addcdiv_formula())},
      {Op::unfused_addcmul, pointwise_row(addcmul_formula())},
      {Op::unfused_addcdiv, pointwise_row(addcdiv_formula())},
      {Op::broadcast_shapes, shape_rule(broadcast_shapes_rule)},
      {Op::expand, shape_rule([](const Case& c) { return expand_outcome(c.shapes[0], c.shapes[1]); })},
      {Op::sum_to, shape_rule([](const Case& c) { return sum_to_outcome(c.shapes[0], c.shapes[1]); })},
      {Op::diamond, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return (x + y) * x; },
                                          [](auto x, auto y, auto, const Scalars&) -> Partials<decltype(x)> {
                                            return {2 * x + y, x, decltype(x)(0)};
                                          }))},
      // The difference, whose 2-norm run_pointwise takes (and scales the partials by (x - y) / norm).
      {Op::dist, pointwise_row(formula([](auto x, auto y, auto, const Scalars&) -> decltype(x) { return x - y; },
                                       [](auto x, auto, auto, const Scalars&) -> Partials<decltype(x)> {
                                         using T = decltype(x);
                                         return {T(1), T(-1), T(0)};
                                       },
                                       nullptr, true))},
      // A program of ops: no document states how a composition of ops behaves beyond each op's own rule.
      {Op::graph, silent_on("a pointwise formula for ")},
      // Floor division is in no seed document (003 lists the pointwise ops of 2017, before floor_divide).
      {Op::floor_divide, silent_on("a pointwise formula for ")},
      // No seed document speaks of the bitwise, shift or logical operators, nor of logaddexp.
      {Op::bitwise_and, silent_on("a pointwise formula for ")},
      {Op::bitwise_or, silent_on("a pointwise formula for ")},
      {Op::bitwise_xor, silent_on("a pointwise formula for ")},
      {Op::bitwise_left_shift, silent_on("a pointwise formula for ")},
      {Op::bitwise_right_shift, silent_on("a pointwise formula for ")},
      {Op::logical_and, silent_on("a pointwise formula for ")},
      {Op::logical_or, silent_on("a pointwise formula for ")},
      {Op::logical_xor, silent_on("a pointwise formula for ")},
      {Op::logaddexp, silent_on("a pointwise formula for ")},
  };
  for (const OpEntry& e : op_table()) {
    if (e.base) continue;
    if (product_op(e.op)) cells.push_back({e.op, DocumentRow{std::nullopt, nullptr, true, "", ""}});
    // No seed document speaks of one-operand ops; their broadcasting is trivial and their formulas are the
    // libraries' own pages, which the implementations already follow.
    if (e.unary) cells.push_back({e.op, silent_on("a pointwise formula for ")});
    // Seed 003 says only that reductions' keepdim defaults to False; no document states what a list of dims
    // (empty, negative, repeated) or dtype= does.
    if (e.reduction) cells.push_back({e.op, silent_on("the rule of a reduction over a list of dims (", ")")});
    // Nor what writing one value into a self whose elements share memory does (seed 003's in-place section speaks
    // of ops with operands).
    if (e.fill) cells.push_back({e.op, silent_on("the rule of ", " (one value written into self)")});
  }
  return cells;
}

const BindingTable<DocumentRow>& bindings() {
  static const BindingTable<DocumentRow> table("oracles/document_oracle.cpp", cells());
  return table;
}

class DocumentOracle : public Oracle {
 public:
  DocumentOracle() { bindings().check(); }
  std::string name() const override { return "documents"; }
  std::string version() const override { return "seeds 000-004, PyTorch 1.13 and NumPy documentation"; }
  Outcome run(const Case& c) override {
    // No seed document speaks of out= arguments (their resize and cast rules are LibTorch's own).
    if (c.out) return Outcome::unsupported_because("no document states the out= form's rules");
    // The seed documents speak of tensors only; PyTorch's wrapped numbers are its type-promotion page's, not theirs.
    if (has_numbers(c)) return silent("how a Python number operand promotes");
    const DocumentRow* row = bindings().row(c.op);
    if (!row) return Outcome::unsupported_because(bindings().reason(c.op));
    if (row->formula) return pointwise(c, c.op, *row->formula);
    if (row->rule) return row->rule(c);
    if (row->product) return product(c, c.op, entry(c.op).family == Family::fused);
    return silent(row->silent_about + to_string(c.op) + row->silent_after);
  }
};

}  // namespace

std::unique_ptr<Oracle> make_document_oracle() { return std::make_unique<DocumentOracle>(); }
const BindingProblems& document_binding_problems() { return bindings().problems(); }

}  // namespace bc
