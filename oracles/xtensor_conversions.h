// The element type the xtensor value oracle holds each operand of an elementwise op in: the type C++ converts that
// operand to before the op's function applies, so that one instantiation of xtensor's expression per such type
// serves every pair of dtypes (docs/notes/build-time.md) with the values and the value type the pair's own
// expression has. xtensor's element functors apply C++'s own operators and functions (xoperation.hpp, xmath.hpp);
// each row of xtensor_pointwise.h names the rule its function follows:
//   usual      a + b, a < b, a & b ...: the usual arithmetic conversions ([expr.arith.conv]) turn both into one
//              type, after promoting bool and the narrow integers to int: int, int64, float or double
//   promoted   a << b, a >> b: each operand promoted on its own ([expr.shift]); the result has the left one's type
//   math       <cmath>'s functions of two numbers (std::pow ...): double unless both are float ([cmath.syn])
//   common     std::common_type of the two (xtensor's maximum and minimum): a type with itself stays itself (the
//              maximum of two int8 is an int8), two types meet as the usual arithmetic conversions make them
//   truth      a && b, a || b: each operand as bool
//   where      the condition as bool (what `cond ? a : b` tests), a and b as common makes them
//   none       not stated: each operand in its own dtype, the op compiled per pair (pair_compiled_v)
// and the value oracle derives two more from a row's usual rule:
//   scaled     add and sub with alpha, `a + alpha * b`: b in the type of alpha * b, then a in the type of the sum
//   compound   a computed assignment, `self += alpha * other` (add_, sub_; an absent alpha is 1) or `self *= other`
//              (mul_, div_): self keeps its type (it is written; xtensor evaluates self op other into a temporary of
//              self's type, xsemantic.hpp), other takes the type of alpha * other, or of self op other
// Exact because each conversion is the one the op itself makes first; tests/oracles/xtensor_conversions_test.cpp
// checks every pair of dtypes with xtensor's own element functors.
#pragma once

#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "harness/case.h"

namespace bc::xtv {

enum class Conversion { none, usual, promoted, math, common, truth, where, scaled, compound };

// A C++ element type as a value, and the one each dtype is held in (float16 and bfloat16 have none: throws).
template <class T>
struct TypeTag {
  using type = T;
};
using AnyTypeTag = std::variant<TypeTag<bool>, TypeTag<int64_t>, TypeTag<float>, TypeTag<double>, TypeTag<int8_t>,
                                TypeTag<uint8_t>, TypeTag<int16_t>, TypeTag<int32_t>>;
AnyTypeTag type_tag_of(DType t);

// BC_XTENSOR_FEW_DTYPES (the debug builds, xtensor_operands.h): operands stay in their own dtypes, since the types
// some conversions make (int for bool + bool, double for float with int64) are not held there; every pair of its
// three types is compiled, as before conversions.
#ifdef BC_XTENSOR_FEW_DTYPES
inline constexpr bool kConverts = false;
#else
inline constexpr bool kConverts = true;
#endif

// The dtype each operand of `c` is held in under `rule`, given the operands' own dtypes (all kept where the rule is
// none, in a build without conversions, or with float16 or bfloat16 among them: refused before, xtensor_oracle.cpp).
std::vector<DType> held_dtypes(const Case& c, Conversion rule, std::vector<DType> own);

template <class T>
inline constexpr bool is_narrow_v = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
                                    std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t>;
// Rule none: any two wide element types, and two operands of one narrow integer type (each pair of types costs
// seconds of compilation per unit); a narrow integer with any other type is unsupported.
template <class A, class B>
inline constexpr bool pair_compiled_v = (!is_narrow_v<A> && !is_narrow_v<B>) || std::is_same_v<A, B>;

// T is what integral promotion leaves it (int, int64, float, double).
template <class T>
inline constexpr bool promoted_v = std::is_same_v<decltype(+T()), T>;

// Which pairs of held element types an op of each rule is compiled for: exactly those held_dtypes makes (a pair
// not listed is never reached).
template <Conversion C, class A, class B>
inline constexpr bool held_pair_v = [] {
  if constexpr (!kConverts || C == Conversion::none) return pair_compiled_v<A, B>;
  else if constexpr (C == Conversion::usual) return std::is_same_v<A, B> && promoted_v<A>;
  else if constexpr (C == Conversion::promoted) return promoted_v<A> && promoted_v<B>;
  else if constexpr (C == Conversion::math) return std::is_same_v<A, B> && std::is_floating_point_v<A>;
  else if constexpr (C == Conversion::common) return std::is_same_v<A, B>;
  else if constexpr (C == Conversion::truth) return std::is_same_v<A, bool> && std::is_same_v<B, bool>;
  else return false;
}();
// `a + s * b` with a of A and b of B held as scaled holds them, for an alpha of type S.
template <class A, class B, class S>
inline constexpr bool scaled_pair_v =
    !kConverts || (std::is_same_v<B, decltype(S() * B())> && std::is_same_v<A, decltype(A() + B())>);
// `self op= other` with self of Self and other of B held as compound holds it: for mul_ and div_ (op_alpha false),
// B is the type of self op other; for add_ and sub_, the type of alpha * other for an alpha of type S.
template <class Self, class B, bool op_alpha, class S = int64_t>
inline constexpr bool compound_pair_v =
    !kConverts || (op_alpha ? std::is_same_v<B, decltype(S() * B())>
                            : promoted_v<B> && std::is_same_v<B, decltype(Self() + B())>);
// where(condition, a, b): the condition bool, a and b of one type.
template <class K>
inline constexpr bool held_condition_v = !kConverts || std::is_same_v<K, bool>;
template <class A, class B>
inline constexpr bool held_choices_v = !kConverts ? pair_compiled_v<A, B> : std::is_same_v<A, B>;

}  // namespace bc::xtv
