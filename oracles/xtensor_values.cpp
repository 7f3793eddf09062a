#include "oracles/xtensor_values.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <xtensor/xexception.hpp>
#include <xtensor/xmanipulation.hpp>

#include "oracles/binding_table.h"
#include "oracles/xtensor_conversions.h"
#include "oracles/xtensor_operands.h"
#include "oracles/xtensor_pointwise.h"

namespace bc {
namespace xtv {
namespace {

using Transposed =
    decltype(xt::transpose(std::declval<Base<float>&>(), std::vector<std::size_t>{}, xt::check_policy::none()));
static_assert(std::is_same_v<View<float>, Transposed>, "xt::transpose and xt::strided_view return one view type");
static_assert(std::is_same_v<View<float>, decltype(xt::strided_view(std::declval<Base<float>&>(), XShape{},
                                                                    std::vector<std::ptrdiff_t>{}, std::size_t{}))>,
              "xt::strided_view with strides and with slices return one view type");

// A buffer of T holding `values` (in T's dtype: harness/operands.h) exactly.
// A type this build does not hold (BC_XTENSOR_FEW_DTYPES) is refused before any operand is built.
template <class T, class V>
AnyBuffer make_buffer(const std::vector<V>& values) {
  if constexpr (held_v<T>) {
    std::shared_ptr<T[]> data(new T[values.empty() ? 1 : values.size()]);
    for (size_t k = 0; k < values.size(); ++k) data[k] = static_cast<T>(values[k]);
    return data;
  } else {
    throw std::logic_error("xtensor oracle: " + dtype_name<T>() + " is not held in this build");
  }
}

AnyBuffer buffer_for(DType t, const Values& values) {
  switch (t) {
    case DType::bool_: return make_buffer<bool>(values.ints());
    case DType::int64: return make_buffer<int64_t>(values.ints());
    case DType::float32: return make_buffer<float>(values.floats());
    case DType::float64: break;
    case DType::int8: return make_buffer<int8_t>(values.ints());
    case DType::uint8: return make_buffer<uint8_t>(values.ints());
    case DType::int16: return make_buffer<int16_t>(values.ints());
    case DType::int32: return make_buffer<int32_t>(values.ints());
    case DType::float16:  // refused before (xtensor_oracle.cpp: unsupported_dtype)
    case DType::bfloat16: throw std::logic_error(std::string("xtensor oracle: no buffer for ") + to_string(t));
  }
  return make_buffer<double>(values.floats());
}

// The buffer converted elementwise to element type H as C++ converts its own type (static_cast), so that an operand
// held in another type (xtensor_conversions.h) has exactly the values the op's own conversion gives it.
template <class H, class T>
AnyBuffer convert_to(const Buffer<T>& from, size_t n) {
  if constexpr (held_v<H>) {
    std::shared_ptr<H[]> data(new H[n == 0 ? 1 : n]);
    for (size_t k = 0; k < n; ++k) data[k] = static_cast<H>(from[k]);
    return data;
  } else {
    throw std::logic_error("xtensor oracle: " + dtype_name<H>() + " is not held in this build");
  }
}

AnyBuffer held_buffer(DType own, DType held, const Values& values) {
  AnyBuffer buffer = buffer_for(own, values);
  if (held == own) return buffer;
  return std::visit(
      [&](const auto& from) -> AnyBuffer {
        const size_t n = values.size();
        switch (held) {
          case DType::bool_: return convert_to<bool>(from, n);
          case DType::int64: return convert_to<int64_t>(from, n);
          case DType::float32: return convert_to<float>(from, n);
          case DType::float64: return convert_to<double>(from, n);
          case DType::int8: return convert_to<int8_t>(from, n);
          case DType::uint8: return convert_to<uint8_t>(from, n);
          case DType::int16: return convert_to<int16_t>(from, n);
          case DType::int32: return convert_to<int32_t>(from, n);
          case DType::float16: case DType::bfloat16: break;
        }
        throw std::logic_error(std::string("xtensor oracle: no buffer for ") + to_string(held));
      },
      buffer);
}

XShape xshape(const Shape& s) { return XShape(s.begin(), s.end()); }

// xtensor's as_strided: a view with the plan's own shape, strides and offset into the base's storage.
template <class B>
auto as_strided(B& base, const OperandPlan& p) -> decltype(xt::strided_view(base, xt::xstrided_slice_vector{})) {
  return xt::strided_view(base, xshape(p.shape), std::vector<std::ptrdiff_t>(p.strides.begin(), p.strides.end()),
                          static_cast<std::size_t>(p.offset));
}

// The operand as the op reads it, over its base (for an expanded operand, the whole base, which xt::broadcast
// then stretches).
template <class B>
auto view_of(B& base, const OperandPlan& p) -> decltype(xt::strided_view(base, xt::xstrided_slice_vector{})) {
  const size_t r = p.shape.size();
  switch (p.layout) {
    case Layout::transposed: {  // the last two dims swapped back, as base.transpose(-2, -1)
      std::vector<std::size_t> axes(r);
      std::iota(axes.begin(), axes.end(), std::size_t{0});
      std::swap(axes[r - 1], axes[r - 2]);
      return xt::transpose(base, axes, xt::check_policy::none());
    }
    case Layout::strided: {  // every other element of the doubled last dim, as base.slice(-1, 0, n, 2)
      const auto n = static_cast<std::ptrdiff_t>(p.base_shape.back());
      return xt::strided_view(base, {xt::ellipsis(), xt::range(std::ptrdiff_t{0}, n, std::ptrdiff_t{2})});
    }
    case Layout::overlapping: return as_strided(base, p);
    case Layout::contiguous:
    case Layout::expanded: break;
  }
  return xt::strided_view(base, xt::xstrided_slice_vector{});
}

// Visits the base an operand lives in (its own, or the one an overlapping operand views).
template <class F>
decltype(auto) with_base(Operands& ops, const OperandPlan& p, size_t k, F&& f) {
  const bool own = !std::holds_alternative<std::monostate>(ops.bases[k]);
  AnyBase& base = ops.bases[own || p.views_operand < 0 ? k : static_cast<size_t>(p.views_operand)];
  return std::visit(
      [&](auto& b) -> decltype(f(std::declval<Base<float>&>())) {
        if constexpr (std::is_same_v<std::decay_t<decltype(b)>, std::monostate>) throw std::logic_error("no base");
        else return f(b);
      },
      base);
}

std::vector<DType> own_dtypes(const std::vector<OperandPlan>& plans) {
  std::vector<DType> own;
  for (const OperandPlan& p : plans) own.push_back(p.dtype);
  return own;
}

}  // namespace

void build_operands(const std::vector<OperandPlan>& plans, Operands& ops) {
  build_operands(plans, own_dtypes(plans), ops);
}

void build_operands(const std::vector<OperandPlan>& plans, const std::vector<DType>& held, Operands& ops) {
  for (size_t k = 0; k < plans.size(); ++k) {
    const OperandPlan& p = plans[k];
    // The operand whose storage this one reads: an overlapping operand views an earlier one's base, or, held in
    // another type than that base, a copy of that storage converted to its own type (the ops that convert their
    // operands read them only, or, in place, evaluate the whole result before writing self: xsemantic.hpp).
    const size_t s = p.views_operand >= 0 ? static_cast<size_t>(p.views_operand) : k;
    if (s != k && held[k] == held[s]) {
      ops.buffers.emplace_back();
      ops.bases.emplace_back();
    } else {
      const OperandPlan& storage = plans[s];
      ops.buffers.push_back(held_buffer(storage.dtype, held[k], storage.base_values));
      const auto elements = static_cast<std::size_t>(numel(storage.base_shape));
      ops.bases.push_back(std::visit(
          [&](const auto& data) -> AnyBase {
            return xt::adapt(data.get(), elements, xt::no_ownership(), xshape(storage.base_shape));
          },
          ops.buffers.back()));
    }
    ops.views.push_back(with_base(ops, p, k, [&](auto& base) -> AnyView { return view_of(base, p); }));
    ops.inputs.push_back(std::visit(
        [&](const auto& view) -> AnyInput { return xt::broadcast(view, xshape(p.shape)); }, ops.views.back()));
  }
}

AnySelf self_of(const OperandPlan& p, Operands& ops) {
  if (p.layout == Layout::contiguous)
    return with_base(ops, p, 0, [](auto& base) -> AnySelf { return BaseSelf(&base); });
  if (p.layout == Layout::expanded) {
    // xt::broadcast is read-only; the writable view with the same stride-0 layout is xtensor's as_strided.
    ops.views.push_back(with_base(ops, p, 0, [&](auto& base) -> AnyView { return as_strided(base, p); }));
    return std::visit([](auto& view) -> AnySelf { return ViewSelf(&view); }, ops.views.back());
  }
  return std::visit([](auto& view) -> AnySelf { return ViewSelf(&view); }, ops.views.front());
}

}  // namespace xtv

namespace {

// How xtensor runs an op on values: the op's own path and its in-place form's.
enum class Path { no_meaning, no_assignment, not_values, products, addc, where, assignment, arithmetic, unary, reduce,
                  fill };
// conversion: how the value form converts its operands (the row's rule, xtensor_conversions.h); alpha: the value
// form takes add's and sub's alpha (scaled, when the case has one).
struct XtensorRow {
  Path path, in_place;
  xtv::Conversion conversion = xtv::Conversion::none;
  bool alpha = false;
};
XtensorRow both(Path p, xtv::Conversion conversion = xtv::Conversion::none) { return {p, p, conversion}; }

// The binding table: the pointwise rows' (xtensor_pointwise.h) value forms, the ops with an engine rule of a kind
// xtensor runs one way (the products, the reductions, fill_ and zero_), and the rest, each with its path.
const BindingTable<XtensorRow>& bindings() {
  using C = BindingTable<XtensorRow>::Cell;
  static const BindingTable<XtensorRow> table("oracles/xtensor_values.cpp", [] {
    std::vector<C> cells = {
        {Op::lerp, both(Path::no_meaning)},
        {Op::where, both(Path::where, xtv::Conversion::where)},
        {Op::addcmul, both(Path::addc)},
        {Op::addcdiv, both(Path::addc)},
        {Op::unfused_addcmul, both(Path::addc)},
        {Op::unfused_addcdiv, both(Path::addc)},
        {Op::broadcast_shapes, both(Path::not_values)},
        {Op::expand, both(Path::not_values)},
        {Op::sum_to, both(Path::not_values)},
        {Op::diamond, both(Path::not_values)},
        {Op::graph, both(Path::not_values)},
    };
    std::apply([&](const auto&... row) {
      const auto cell = [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if (R::form == xtv::Form::unary) cells.push_back({r.op, both(Path::unary)});
        else if (R::form != xtv::Form::formula)
          cells.push_back({r.op, XtensorRow{Path::arithmetic, r.assigns ? Path::assignment : Path::no_assignment,
                                            R::conversion, R::form == xtv::Form::binary_alpha}});
      };
      (cell(row), ...);
    }, xtv::kPointwiseRows);
    for (const OpEntry& e : op_table()) {
      if (e.base) continue;
      if (product_op(e.op)) cells.push_back({e.op, both(Path::products)});
      if (e.reduction) cells.push_back({e.op, both(Path::reduce)});
      if (e.fill) cells.push_back({e.op, both(Path::fill)});
    }
    return cells;
  }());
  return table;
}

const XtensorRow& row_of(Op op) {
  const XtensorRow* row = bindings().row(op);
  if (!row) throw std::logic_error(bindings().reason(op));
  return *row;
}

Path path_of(Op op) { return op != out_of_place(op) ? row_of(op).in_place : row_of(op).path; }

// The rule the case's operands are held by: the row's, scaled for add and sub with alpha, compound for a computed
// assignment (whose row's rule is usual).
xtv::Conversion conversion_of(const Case& c, Path path) {
  const XtensorRow& row = row_of(c.op);
  if (path == Path::assignment) return xtv::Conversion::compound;
  if (row.alpha && c.scalars.count("alpha") > 0) return xtv::Conversion::scaled;
  return row.conversion;
}

}  // namespace

const BindingProblems& xtensor_binding_problems() { return bindings().problems(); }

Outcome run_xtensor_values(const Case& c) {
  using namespace xtv;
  const Op op = c.op;
  const Path path = path_of(op);
  if (path == Path::no_meaning)
    return Outcome::unsupported_because(std::string("xtensor has no ") + to_string(op) + " with PyTorch's meaning");
  if (path == Path::no_assignment)
    return Outcome::unsupported_because(std::string("xtensor has no computed assignment for ") + to_string(op));
  if (path == Path::not_values)
    return Outcome::unsupported_because("xtensor value-level cases cover the elementwise ops only");
  const std::vector<OperandPlan> plans = plan_operands(c);
  Operands ops;
  try {
    build_operands(plans, held_dtypes(c, conversion_of(c, path), own_dtypes(plans)), ops);
    if (path == Path::products) return products(c, ops, plans);
    if (path == Path::addc) return addc(c, ops, plans);
    if (path == Path::unary) return unary(op, ops.inputs[0]);
    if (path == Path::reduce) return reduction(c, op, ops.inputs[0]);
    if (path == Path::where) return where(c, ops.inputs[0], ops.inputs[1], ops.inputs[2]);
    if (path == Path::assignment) return computed_assignment(c, self_of(plans[0], ops), ops.inputs[1]);
    if (path == Path::fill) return fill(c, op, self_of(plans[0], ops));
    return arithmetic(c, op, ops.inputs[0], ops.inputs[1]);
  } catch (const xt::broadcast_error& e) {
    return Outcome::failure(ErrorKind::broadcast, e.what());
  } catch (const std::exception& e) {
    return Outcome::failure(ErrorKind::other, e.what());
  }
}

}  // namespace bc
