// The formulas of xtensor_formulas.h, from the rows of xtensor_pointwise.h: the one unit that instantiates the
// rows' forwards and gradients (for float and double), so that the gradient and graph oracles need not.
#include "oracles/xtensor_formulas.h"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "oracles/xtensor_pointwise.h"

namespace bc::xtv {
namespace {

template <class T>
struct Tag {
  using type = T;
};
using AnyTag = std::variant<Tag<bool>, Tag<int64_t>, Tag<float>, Tag<double>>;

AnyTag tag_of(DType t) {
  switch (t) {
    case DType::bool_: return Tag<bool>{};
    case DType::int64: return Tag<int64_t>{};
    case DType::float32: return Tag<float>{};
    default: return Tag<double>{};
  }
}

template <class T>
std::optional<DType> dtype_for() {
  if constexpr (std::is_same_v<T, bool>) return DType::bool_;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::int64;
  else if constexpr (std::is_same_v<T, float>) return DType::float32;
  else if constexpr (std::is_same_v<T, double>) return DType::float64;
  else return std::nullopt;  // int, from bool + bool
}

// Declared only, to name an operand of element type T inside decltype.
template <class T>
const xt::xarray<T>& operand();

// The `ev` of a value form inside decltype: the expression's value type, as a Tag (declared only).
struct TypeOf {
  template <class E>
  Tag<typename std::decay_t<E>::value_type> operator()(E&&) const;
};
// A value form's result inside decltype: a Tag's dtype, or nullopt for an Outcome (no such function here).
template <class R>
std::optional<DType> type_of_result() {
  if constexpr (std::is_same_v<R, Outcome>) return std::nullopt;
  else return dtype_for<typename R::type>();
}
#define BC_XT_TYPE(expression) dtype_for<typename std::decay_t<decltype(expression)>::value_type>()

// What a row's value form returns for these arguments (inside decltype only).
template <class R, class... Args>
using ValueResult = decltype(std::declval<const R&>().value(std::declval<Args>()...));
template <class T>
using Arg = const xt::xarray<T>&;

// The dtype of a row's expression over the case's operand types (alpha or value as the case writes it: absent, an
// int64_t or a double).
template <class R>
std::optional<DType> row_type(const R& row, const Case& c) {
  if constexpr (R::form == Form::formula) {
    return row.type(c);
  } else if constexpr (R::form == Form::unary) {
    return std::visit([](auto ta) {
      return type_of_result<ValueResult<R, Arg<typename decltype(ta)::type>, TypeOf>>();
    }, tag_of(dtype_of(c, 0)));
  } else {
    return std::visit([&](auto ta, auto tb) -> std::optional<DType> {
      using A = Arg<typename decltype(ta)::type>;
      using B = Arg<typename decltype(tb)::type>;
      if constexpr (R::form == Form::binary) {
        return type_of_result<ValueResult<R, A, B, TypeOf>>();
      } else {
        if (!c.scalars.count("alpha")) return type_of_result<ValueResult<R, A, B, None, TypeOf>>();
        if (scalar_of(c, "alpha").integral) return type_of_result<ValueResult<R, A, B, int64_t, TypeOf>>();
        return type_of_result<ValueResult<R, A, B, double, TypeOf>>();
      }
    }, tag_of(dtype_of(c, 0)), tag_of(dtype_of(c, 1)));
  }
}

// The value form's expression, evaluated as an xarray of T.
template <class T>
struct ToArray {
  template <class E>
  xt::xarray<T> operator()(E&& e) const { return xt::xarray<T>(std::forward<E>(e)); }
};

// A row's forward with PyTorch's meaning: its own, or its value form's.
template <class T, class R>
xt::xarray<T> row_forward(const R& row, const std::vector<xt::xarray<T>>& x, T alpha) {
  if constexpr (R::has_forward) return row.forward(x, alpha);
  else if constexpr (R::form == Form::unary) return row.value(x[0], ToArray<T>{});
  else if constexpr (R::form == Form::binary_alpha) return row.value(x[0], x[1], alpha, ToArray<T>{});
  else return row.value(x[0], x[1], ToArray<T>{});
}

template <class T>
std::vector<xt::xarray<T>> cast_all(const std::vector<Doubles>& x) {
  std::vector<xt::xarray<T>> out;
  for (const Doubles& a : x) out.push_back(xt::cast<T>(a));
  return out;
}

template <class T>
std::vector<Doubles> to_doubles(const std::vector<xt::xarray<T>>& shares) {
  std::vector<Doubles> out;
  for (const xt::xarray<T>& share : shares) out.push_back(xt::cast<double>(share));
  return out;
}

[[noreturn]] void no_formula(Op op) {
  throw std::logic_error(std::string("xtensor_formulas.cpp: no formula for ") + to_string(op));  // callers ask first
}

}  // namespace

std::optional<DType> lerp_type(const Case& c) { return dtype_of(c, 0); }  // one dtype for all three (checked before)

std::optional<DType> where_type(const Case& c) {
  return std::visit([](auto ta, auto tb) {
    using TA = typename decltype(ta)::type;
    using TB = typename decltype(tb)::type;
    return BC_XT_TYPE(xt::where(operand<bool>(), operand<TA>(), operand<TB>()));
  }, tag_of(dtype_of(c, 1)), tag_of(dtype_of(c, 2)));
}

// c + value * a * b (or / b), value an int64_t or a double.
template <bool Mul>
std::optional<DType> addc_type(const Case& c) {
  return std::visit([&](auto tc, auto ta, auto tb) -> std::optional<DType> {
    using TC = typename decltype(tc)::type;
    using TA = typename decltype(ta)::type;
    using TB = typename decltype(tb)::type;
    const bool integral = scalar_of(c, "value").integral;
    if constexpr (Mul)
      return integral ? BC_XT_TYPE(operand<TC>() + int64_t{} * operand<TA>() * operand<TB>())
                      : BC_XT_TYPE(operand<TC>() + double{} * operand<TA>() * operand<TB>());
    else
      return integral ? BC_XT_TYPE(operand<TC>() + int64_t{} * operand<TA>() / operand<TB>())
                      : BC_XT_TYPE(operand<TC>() + double{} * operand<TA>() / operand<TB>());
  }, tag_of(dtype_of(c, 0)), tag_of(dtype_of(c, 1)), tag_of(dtype_of(c, 2)));
}
std::optional<DType> addcmul_type(const Case& c) { return addc_type<true>(c); }
std::optional<DType> addcdiv_type(const Case& c) { return addc_type<false>(c); }

std::optional<DType> diamond_type(const Case& c) {
  return std::visit([](auto ta, auto tb) {
    using TA = typename decltype(ta)::type;
    using TB = typename decltype(tb)::type;
    return BC_XT_TYPE((operand<TA>() + operand<TB>()) * operand<TA>());
  }, tag_of(dtype_of(c, 0)), tag_of(dtype_of(c, 1)));
}

#undef BC_XT_TYPE

bool has_formula(Op op) {
  bool has = false;
  with_pointwise_row(op, [&](const auto& row) { has = std::decay_t<decltype(row)>::has_grad; });
  return has;
}

std::optional<DType> formula_type(Op op, const Case& c) {
  std::optional<DType> type;
  with_pointwise_row(op, [&](const auto& row) {
    if constexpr (std::decay_t<decltype(row)>::has_grad) type = row_type(row, c);
  });
  return type;
}

Doubles formula_forward(Op op, const std::vector<Doubles>& x, DType compute, double alpha) {
  std::optional<Doubles> r;
  with_pointwise_row(op, [&](const auto& row) {
    if constexpr (std::decay_t<decltype(row)>::has_grad) {
      if (compute == DType::float32)
        r = xt::cast<double>(row_forward<float>(row, cast_all<float>(x), static_cast<float>(alpha)));
      else
        r = row_forward<double>(row, x, alpha);
    }
  });
  if (!r) no_formula(op);
  return std::move(*r);
}

std::vector<Doubles> formula_grads(Op op, const std::vector<Doubles>& x, const Doubles& r, const Doubles& g,
                                   DType compute, double alpha) {
  std::optional<std::vector<Doubles>> out;
  with_pointwise_row(op, [&](const auto& row) {
    if constexpr (std::decay_t<decltype(row)>::has_grad) {
      if (compute != DType::float32)
        out = row.grad(x, r, g, alpha);
      else
        out = to_doubles(row.grad(cast_all<float>(x), xt::xarray<float>(xt::cast<float>(r)),
                                  xt::xarray<float>(xt::cast<float>(g)), static_cast<float>(alpha)));
    }
  });
  if (!out) no_formula(op);
  return std::move(*out);
}

Doubles comparison(Op op, const Doubles& a, const Doubles& b) {
  if (!is_comparison(op)) no_formula(op);
  std::optional<Doubles> r;
  with_pointwise_row(op, [&](const auto& row) {
    if constexpr (std::decay_t<decltype(row)>::form != Form::formula) r = row_forward<double>(row, {a, b}, 1.0);
  });
  if (!r) no_formula(op);
  return std::move(*r);
}

}  // namespace bc::xtv
