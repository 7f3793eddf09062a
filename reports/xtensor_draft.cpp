#include "reports/xtensor_draft.h"

#include <map>

#include <fmt/format.h>

#include "reports/torch_draft.h"

namespace bc {
namespace {

std::string xt_shape(const Shape& s) { return "std::vector<std::size_t>" + braced(s); }

std::string expectation_lines(const Outcome& rule, const std::string& call_expr, const std::string& sizes_of,
                              const std::string& expected_sizes) {
  if (rule.status == Status::error)
    return fmt::format("  // The rule: error {} (\"{}\").\n  EXPECT_ANY_THROW({});\n",
                       rule.error ? to_string(rule.error->kind) : "other", rule.error ? rule.error->message : "",
                       call_expr);
  return fmt::format("  // The rule: shape {}.\n  auto r = {};\n  EXPECT_EQ({}, {});\n", format_shape(rule.shape),
                     call_expr, sizes_of, expected_sizes);
}

// Whether the case is one the xtensor draft below builds faithfully: float32 operands of zeros, contiguous.
bool plain_shape_case(const Case& c) {
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (dtype_of(c, k) != DType::float32 || layout_of(c, k) != Layout::contiguous) return false;
  return !c.values && !is_gradient_case(c) && c.scalars.empty();
}

// xtensor's operator for a pointwise op (+ - * /); nullptr where it has none.
const char* xt_operator(Op op) {
  if (op == Op::add) return "+";
  if (op == Op::sub) return "-";
  if (op == Op::mul) return "*";
  if (op == Op::div) return "/";
  return nullptr;
}

}  // namespace

std::string xtensor_draft(const Case& c, const Outcome& rule, const std::string& name) {
  const OpEntry* op = &entry(c.op);
  if (!plain_shape_case(c))
    return "// No xtensor draft for a case with values, dtypes, layouts, scalars or gradients: "
           "oracles/xtensor_oracle.cpp shows what the oracle calls.\n";
  std::string body, call;
  for (size_t i = 0; i < c.shapes.size() && i < 2; ++i)
    body += fmt::format("  xt::xarray<float> t{}({}, 0.0f);\n", i, xt_shape(c.shapes[i]));
  const char* symbol = xt_operator(out_of_place(c.op));
  if ((op->family == Family::elementwise || op->family == Family::inplace) && !symbol)
    return "// No xtensor draft for " + std::string(op->name) + ": xtensor has no operator for it.\n";
  if (op->family == Family::elementwise) {
    call = "xt::xarray<float>(t0 " + std::string(symbol) + " t1)";
  } else if (op->family == Family::inplace) {
    body += expectation_lines(rule, "(t0 " + std::string(symbol) + "= t1, t0)", "r.shape()",
                              xt_shape(rule.shape));
    return fmt::format("#include <xtensor/xarray.hpp>\n#include <gtest/gtest.h>\n\n"
                       "TEST(BroadcheckRegression, {}_xtensor) {{\n{}}}\n",
                       name, body);
  } else if (op->family == Family::expand) {
    call = "xt::xarray<float>(xt::broadcast(t0, " + xt_shape(c.shapes[1]) + "))";
  } else {
    return "// No xtensor draft for " + std::string(op->name) + ": see oracles/xtensor_oracle.cpp for what the oracle calls.\n";
  }
  body += expectation_lines(rule, call, "r.shape()", xt_shape(rule.shape));
  return fmt::format("#include <xtensor/xarray.hpp>\n#include <xtensor/xbroadcast.hpp>\n#include <gtest/gtest.h>\n\n"
                     "TEST(BroadcheckRegression, {}_xtensor) {{\n{}}}\n",
                     name, body);
}


}  // namespace bc
