// The xtensor oracle on a number operand (harness/case.h: Case::numbers): `a + 2.5`, the number a C++ scalar in
// the expression, as an xtensor user writes it. Its C++ type is the literal's: `true` a bool, `300` an int (a long
// beyond int's range), `2.5` a double; C++'s usual arithmetic conversions then give the result's value type
// (int8 + 300 is an int, int8 + 2.5 and float32 + 2.5 are doubles), not PyTorch's wrapped-number promotion.
#include "oracles/xtensor_binary.h"
#include "oracles/xtensor_values.h"

#include <limits>

#include <xtensor/xexception.hpp>
#include <xtensor/xscalar.hpp>

namespace bc {
namespace xtv {
namespace {

// Calls f with the number as the C++ literal a user writes for it.
template <class F>
Outcome with_literal(const Number& n, F&& f) {
  switch (n.kind) {
    case Number::Kind::boolean: return f(n.i != 0);
    case Number::Kind::integer:
      if (n.i >= std::numeric_limits<int>::min() && n.i <= std::numeric_limits<int>::max()) return f(static_cast<int>(n.i));
      return f(static_cast<long>(n.i));
    case Number::Kind::floating: break;
  }
  return f(n.f);
}

}  // namespace
}  // namespace xtv

Outcome run_xtensor_numbers(const Case& c) {
  using namespace xtv;
  if (c.op == Op::where || is_inplace(c.op) || c.out || is_gradient_case(c) || !number_of(c, 1))
    return Outcome::unsupported_because("the xtensor oracle runs a number as the second operand of an out-of-place "
                                        "binary op only (a + 2.5)");
  const std::vector<OperandPlan> plans = plan_operands(c);
  Operands ops;
  try {
    build_operands(plans, ops);
    return std::visit(
        [&](const auto& a) {
          return with_literal(*plans[1].number, [&](auto s) { return binary_compiled<true>(c, c.op, a, xt::xscalar<decltype(s)>(s)); });
        },
        ops.inputs[0]);
  } catch (const xt::broadcast_error& e) {
    return Outcome::failure(ErrorKind::broadcast, e.what());
  } catch (const std::exception& e) {
    return Outcome::failure(ErrorKind::other, e.what());
  }
}

}  // namespace bc
