// The xtensor value oracle's where: xt::where with a condition of any dtype (a non-bool element is tested for
// truth, as C++ converts it to bool) and operands of any pair of wide dtypes; with a narrow integer among the three,
// the triples of xtensor_operands.h where_compiled_v.
#include <xtensor/xoperation.hpp>

#include "oracles/xtensor_operands.h"

namespace bc::xtv {

Outcome where(const AnyInput& condition, const AnyInput& a, const AnyInput& b) {
  return std::visit(
      [&](const auto& cond, const auto& x, const auto& y) {
        using K = value_type_of<decltype(cond)>;
        using A = value_type_of<decltype(x)>;
        using B = value_type_of<decltype(y)>;
        if constexpr (where_compiled_v<K, A, B>) return evaluate(xt::where(cond, x, y));
        else return not_compiled("where(" + dtype_name<K>() + ", " + dtype_name<A>() + ", " + dtype_name<B>() + ")");
      },
      condition, a, b);
}

}  // namespace bc::xtv
