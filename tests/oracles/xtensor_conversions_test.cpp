// xtensor_conversions.h holds an op's operands in the types C++ converts them to first, by the rule its row in
// xtensor_pointwise.h names. These tests check that claim for every pair of the oracle's dtypes with xtensor's own
// element functors (the functions its expressions apply to each element: xoperation.hpp, xmath.hpp): the functor on
// the operands as held gives the same value, of the same type, as on the operands' own types, for values at the
// edges of each type; and the held types are the ones C++'s rules name, restated here from the standard
// ([expr.arith.conv], <cmath>'s promotion, std::common_type). The expectation is xtensor's functor on the
// unconverted operands, not the code under test. Each pair's checks are one small template (the reports are not),
// so that the file compiles in seconds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <xtensor/xmath.hpp>
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_conversions.h"
#include "oracles/xtensor_operands.h"
#include "oracles/xtensor_pointwise.h"

namespace bc::xtv {
namespace {

const std::vector<DType> kDTypes = {DType::bool_, DType::int64, DType::float32, DType::float64,
                                    DType::int8,  DType::uint8, DType::int16,   DType::int32};

// Values at the edges of T: its extremes, values that int-to-float conversions round (2^24 + 1, 2^53 + 1), signed
// zeros, fractions, infinities and NaN.
template <class T>
std::vector<T> edges() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_same_v<T, bool>) return {false, true};
  else if constexpr (std::is_integral_v<T>) {
    std::vector<T> v = {T(0), T(1), T(2), T(3), T(-1), T(-7), L::min(), L::max(), T(L::max() - 1)};
    if constexpr (sizeof(T) >= 4) v.push_back(T(16777217));
    if constexpr (sizeof(T) == 8) v.push_back(T(9007199254740993LL));
    return v;
  } else {
    return {T(0), T(-0.0), T(1), T(-1.5), T(2.5), T(3), T(0.1), T(16777217.0), L::max(), L::lowest(),
            L::denorm_min(), L::infinity(), -L::infinity(), L::quiet_NaN()};
  }
}

// Same type and value: NaN equals NaN, and a zero's sign counts.
template <class X, class Y>
bool same(const X& x, const Y& y) {
  if constexpr (!std::is_same_v<X, Y>) return false;
  else if constexpr (std::is_floating_point_v<X>)
    return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
  else return x == y;
}

template <class X1, class X2, class Y1, class Y2>
bool same(const std::pair<X1, X2>& x, const std::pair<Y1, Y2>& y) {
  return same(x.first, y.first) && same(x.second, y.second);
}

template <class T>
std::string shown(T v) {
  return std::to_string(+v);
}

// The checks of one pair (or one triple): how many element pairs differ, and the first.
struct Mismatches {
  int count = 0;
  std::string first;
  void add(const std::string& what) {
    if (count++ == 0) first = what;
  }
};

// Reports one pair: the held dtypes against the restated ones, and the mismatches.
void expect_pair(const std::string& what, const std::vector<DType>& held, const std::vector<std::string>& want,
                 const Mismatches& m) {
  ASSERT_EQ(held.size(), want.size()) << what;
  for (size_t k = 0; k < held.size(); ++k) EXPECT_EQ(to_string(held[k]), want[k]) << what << ", operand " << k;
  EXPECT_EQ(m.count, 0) << what << ": first at " << m.first;
}

// A case of `op` on operands of these dtypes, with alpha as given.
Case case_of(Op op, std::vector<DType> dtypes, std::optional<Scalar> alpha = std::nullopt) {
  Case c;
  c.op = op;
  c.dtypes = std::move(dtypes);
  if (alpha) c.scalars["alpha"] = *alpha;
  return c;
}

// The rule op's row names (the rows are what the value oracle reads).
Conversion rule_of(Op op) {
  Conversion r = Conversion::none;
  with_pointwise_row(op, [&](const auto& row) { r = std::decay_t<decltype(row)>::conversion; });
  return r;
}

// Whether v lies in T's range (an integer result outside it is undefined in C++: such values are left out, as C++
// leaves them undefined for the oracle's own cases too).
template <class T>
bool in_range(long double v) {
  if constexpr (std::is_integral_v<T>)
    return !std::isnan(v) && v >= static_cast<long double>(std::numeric_limits<T>::min()) &&
           v <= static_cast<long double>(std::numeric_limits<T>::max());
  else return true;
}

template <class HA, class HB>
struct Held {};
template <class HA, class HB>
std::vector<std::string> held_names(Held<HA, HB>) {
  return {dtype_name<HA>(), dtype_name<HB>()};
}
const auto kUsual = [](auto a, auto b) { return Held<decltype(a + b), decltype(a + b)>{}; };
const auto kMath = [](auto a, auto b) { return Held<decltype(std::pow(a, b)), decltype(std::pow(a, b))>{}; };
const auto kCommon = [](auto a, auto b) {
  using C = std::common_type_t<decltype(a), decltype(b)>;
  return Held<C, C>{};
};

// f on the own values of A and B against f on them converted to HA and HB, for every pair of edge values that
// `skip` does not leave out.
template <class A, class B, class HA, class HB, class F, class Skip>
Mismatches compare(Held<HA, HB>, F f, Skip skip) {
  Mismatches m;
  for (A a : edges<A>())
    for (B b : edges<B>())
      if (!skip(a, b) && !same(f(a, b), f(static_cast<HA>(a), static_cast<HB>(b)))) m.add(shown(a) + ", " + shown(b));
  return m;
}

// For every pair of dtypes: held_dtypes under `conversion` names what `rule` restates, and f agrees (compare).
// where's pairs follow a bool condition (`where`), held as bool.
template <class Rule, class F, class Skip>
void check_pairs(Op op, Conversion conversion, std::optional<Scalar> alpha, Rule rule, F f, Skip skip,
                 bool where = false) {
  for (DType da : kDTypes)
    for (DType db : kDTypes) {
      std::vector<DType> own = {da, db};
      if (where) own.insert(own.begin(), DType::bool_);
      const std::vector<DType> held = held_dtypes(case_of(op, own, alpha), conversion, own);
      std::visit(
          [&](auto ta, auto tb) {
            using A = typename decltype(ta)::type;
            using B = typename decltype(tb)::type;
            const auto restated = rule(A(), B());
            std::vector<std::string> want = held_names(restated);
            if (where) want.insert(want.begin(), "bool");
            expect_pair(std::string(to_string(op)) + " " + to_string(da) + " " + to_string(db), held, want,
                        compare<A, B>(restated, f, skip));
          },
          type_tag_of(da), type_tag_of(db));
    }
}
template <class Rule, class F, class Skip>
void check_row(Op op, Rule rule, F f, Skip skip) {
  check_pairs(op, rule_of(op), std::nullopt, rule, f, skip);
}

// Integer division by zero and the overflow of the lowest value by -1 are undefined (the oracle's cases trap).
const auto kNoUndefinedDivision = [](auto a, auto b) {
  using C = decltype(a + b);
  if constexpr (std::is_integral_v<C>)
    return C(b) == C(0) || (C(b) == C(-1) && C(a) == std::numeric_limits<C>::min());
  else return false;
};
// Signed overflow of an integer sum, difference or product is undefined.
template <class Op2>
auto no_overflow(Op2 op) {
  return [op](auto a, auto b) {
    using C = decltype(a + b);
    if constexpr (std::is_integral_v<C>) return !in_range<C>(op(static_cast<long double>(a), static_cast<long double>(b)));
    else return false;
  };
}
const auto kNone = [](auto, auto) { return false; };

}  // namespace

TEST(XtensorConversions, OperatorsComputeInTheUsualArithmeticConversionsType) {
  const auto add = no_overflow([](long double x, long double y) { return x + y; });
  const auto sub = no_overflow([](long double x, long double y) { return x - y; });
  const auto mul = no_overflow([](long double x, long double y) { return x * y; });
  check_row(Op::add, kUsual, xt::detail::plus{}, add);
  check_row(Op::sub, kUsual, xt::detail::minus{}, sub);
  check_row(Op::mul, kUsual, xt::detail::multiplies{}, mul);
  check_row(Op::div, kUsual, xt::detail::divides{}, kNoUndefinedDivision);
  check_row(Op::lt, kUsual, xt::detail::less{}, kNone);
  check_row(Op::le, kUsual, xt::detail::less_equal{}, kNone);
  check_row(Op::gt, kUsual, xt::detail::greater{}, kNone);
  check_row(Op::ge, kUsual, xt::detail::greater_equal{}, kNone);
  check_row(Op::eq, kUsual, xt::detail::equal_to{}, kNone);
  check_row(Op::ne, kUsual, xt::detail::not_equal_to{}, kNone);
}

TEST(XtensorConversions, MathFunctionsComputeInCmathsPromotedType) {
  check_row(Op::pow, kMath, xt::math::pow_fun{}, kNone);
  check_row(Op::atan2, kMath, xt::math::atan2_fun{}, kNone);
  check_row(Op::fmod, kMath, xt::math::fmod_fun{}, kNone);
  check_row(Op::hypot, kMath, xt::math::hypot_fun{}, kNone);
  check_row(Op::remainder, kMath, xt::math::remainder_fun{}, kNone);
}

TEST(XtensorConversions, MaximumAndMinimumKeepOneTypeAndConvertTwo) {
  check_row(Op::maximum, kCommon, xt::math::maximum<void>{}, kNone);
  check_row(Op::minimum, kCommon, xt::math::minimum<void>{}, kNone);
}

// a + alpha * b with alpha an int64_t or a double, as the oracle writes add and sub with alpha: b converts to the
// type of alpha * b, then a to the type of the sum.
TEST(XtensorConversions, ScaledSumsComputeEachStepInItsOwnType) {
  for (const Scalar alpha : {Scalar{3, true}, Scalar{-2, true}, Scalar{0.1, false}, Scalar{1e300, false}}) {
    const auto run = [&](auto scalar) {
      const auto sum = [scalar](auto a, auto b) { return xt::detail::plus{}(a, xt::detail::multiplies{}(scalar, b)); };
      // Left out: an integer product or sum that overflows (undefined in C++).
      const auto skip = [scalar](auto a, auto b) {
        using P = decltype(scalar * b);
        if constexpr (std::is_integral_v<P>) {
          const long double product = static_cast<long double>(scalar) * static_cast<long double>(b);
          return !in_range<P>(product) || !in_range<P>(static_cast<long double>(a) + product);
        }
        return false;
      };
      const auto rule = [scalar](auto a, auto b) {
        using P = decltype(scalar * b);
        return Held<decltype(a + P()), P>{};
      };
      check_pairs(Op::add, Conversion::scaled, alpha, rule, sum, skip);
    };
    if (alpha.integral) run(static_cast<int64_t>(alpha.value));
    else run(alpha.value);
  }
}

// where(condition, a, b): the condition as bool (checked per condition type with float64 choices), a and b in their
// common type (checked per pair with conditions true and false).
TEST(XtensorConversions, WhereTestsTheConditionAsBoolAndSelectsInTheCommonType) {
  ASSERT_EQ(rule_of(Op::where), Conversion::where);
  const xt::detail::conditional_ternary f;
  for (DType dk : kDTypes) {
    const std::vector<DType> held = held_dtypes(case_of(Op::where, {dk, DType::float64, DType::float64}),
                                                Conversion::where, {dk, DType::float64, DType::float64});
    std::visit(
        [&](auto tk) {
          using K = typename decltype(tk)::type;
          Mismatches m;
          for (K k : edges<K>())
            if (!same(f(k, 1.0, 2.0), f(static_cast<bool>(k), 1.0, 2.0))) m.add(shown(k));
          expect_pair(std::string("where ") + to_string(dk), held, {"bool", "float64", "float64"}, m);
        },
        type_tag_of(dk));
  }
  check_pairs(Op::where, Conversion::where, std::nullopt, kCommon, [&](auto a, auto b) {
    return std::make_pair(f(true, a, b), f(false, a, b));
  }, kNone, true);
}

// self op= other: xtensor evaluates self op other into a temporary of self's type (xsemantic.hpp), so self keeps its
// type and the other operand is held as the op converts it (add_ as the oracle writes it: self += 1 * other).
// `f(self, other)` is the element self op other computes, then written into self's type.
TEST(XtensorConversions, ComputedAssignmentKeepsSelfsTypeAndConvertsTheOther) {
  // Left out: what C++ leaves undefined, an integer result out of its type's range (or a division by zero), and a
  // floating result out of an integer self's range, which converting the other operand cannot change.
  const auto undefined = [](auto f) {
    return [f](auto s, auto b) {
      using S = decltype(s);
      using C = decltype(f(s, b));
      const long double wide = f(static_cast<long double>(s), static_cast<long double>(b));
      return (std::is_integral_v<C> && !in_range<C>(wide)) ||
             (std::is_integral_v<S> && !std::is_same_v<S, bool> && !in_range<S>(wide));
    };
  };
  const auto written = [](auto f) {
    return [f](auto s, auto b) { return static_cast<decltype(s)>(f(s, b)); };
  };
  const auto other = [](auto s, auto b) { return Held<decltype(s), decltype(s + b)>{}; };
  const auto mul = [](auto s, auto b) { return xt::detail::multiplies{}(s, b); };
  const auto div = [](auto s, auto b) {
    if constexpr (std::is_integral_v<decltype(s + b)>)  // an integer division by zero: left out (a 0 instead)
      if (b == decltype(b)(0)) return decltype(xt::detail::divides{}(s, b))(0);
    return xt::detail::divides{}(s, b);
  };
  const auto add = [](auto s, auto b) { return xt::detail::plus{}(s, xt::detail::multiplies{}(int64_t{1}, b)); };
  check_pairs(Op::mul_, Conversion::compound, std::nullopt, other, written(mul), undefined(mul));
  check_pairs(Op::div_, Conversion::compound, std::nullopt, other, written(div), undefined(div));
  check_pairs(Op::add_, Conversion::compound, std::nullopt,
              [](auto s, auto b) { return Held<decltype(s), decltype(int64_t{1} * b)>{}; }, written(add),
              undefined(add));
}

}  // namespace bc::xtv
