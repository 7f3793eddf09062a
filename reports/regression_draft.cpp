#include "reports/regression_draft.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "harness/judge.h"
#include "reports/torch_draft.h"

namespace bc {
namespace {

std::string xt_shape(const Shape& s) { return "std::vector<std::size_t>" + braced(s); }

const Outcome* find(const Outcomes& outcomes, const std::string& name) {
  for (const auto& [n, o] : outcomes)
    if (n == name) return &o;
  return nullptr;
}

std::string expectation_lines(const Outcome& rule, const std::string& call_expr, const std::string& sizes_of,
                              const std::string& expected_sizes) {
  if (rule.status == Status::error)
    return fmt::format("  // The rule: error {} (\"{}\").\n  EXPECT_ANY_THROW({});\n",
                       rule.error ? to_string(rule.error->kind) : "other", rule.error ? rule.error->message : "",
                       call_expr);
  return fmt::format("  // The rule: shape {}.\n  auto r = {};\n  EXPECT_EQ({}, {});\n", format_shape(rule.shape),
                     call_expr, sizes_of, expected_sizes);
}

std::string torch_test(const Case& c, const Outcome& rule, const std::string& name) {
  return torch_draft(c, rule, "BroadcheckRegression", name + "_LibTorch");
}

// Whether the case is one the xtensor draft below builds faithfully: float32 operands of zeros, contiguous.
bool plain_shape_case(const Case& c) {
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (dtype_of(c, k) != DType::float32 || layout_of(c, k) != Layout::contiguous) return false;
  return !c.values && !is_gradient_case(c) && c.scalars.empty();
}

std::string xtensor_test(const Case& c, const Outcome& rule, const std::string& name) {
  const OpEntry* op = find_op(c.op);
  if (!plain_shape_case(c))
    return "// No xtensor draft for a case with values, dtypes, layouts, scalars or gradients: "
           "oracles/xtensor_oracle.cpp shows what the oracle calls.\n";
  std::string body, call;
  for (size_t i = 0; i < c.shapes.size() && i < 2; ++i)
    body += fmt::format("  xt::xarray<float> t{}({}, 0.0f);\n", i, xt_shape(c.shapes[i]));
  static const std::map<std::string, std::string> symbol = {{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"div", "/"}};
  const std::string base_op = op->family == Family::inplace ? c.op.substr(0, c.op.size() - 1) : c.op;
  if ((op->family == Family::elementwise || op->family == Family::inplace) && !symbol.count(base_op))
    return "// No xtensor draft for " + c.op + ": xtensor has no operator for it.\n";
  if (op->family == Family::elementwise) {
    call = "xt::xarray<float>(t0 " + symbol.at(c.op) + " t1)";
  } else if (op->family == Family::inplace) {
    body += expectation_lines(rule, "(t0 " + symbol.at(base_op) + "= t1, t0)", "r.shape()",
                              xt_shape(rule.shape));
    return fmt::format("#include <xtensor/xarray.hpp>\n#include <gtest/gtest.h>\n\n"
                       "TEST(BroadcheckRegression, {}_xtensor) {{\n{}}}\n",
                       name, body);
  } else if (op->family == Family::expand) {
    call = "xt::xarray<float>(xt::broadcast(t0, " + xt_shape(c.shapes[1]) + "))";
  } else {
    return "// No xtensor draft for " + c.op + ": see oracles/xtensor_oracle.cpp for what the oracle calls.\n";
  }
  body += expectation_lines(rule, call, "r.shape()", xt_shape(rule.shape));
  return fmt::format("#include <xtensor/xarray.hpp>\n#include <xtensor/xbroadcast.hpp>\n#include <gtest/gtest.h>\n\n"
                     "TEST(BroadcheckRegression, {}_xtensor) {{\n{}}}\n",
                     name, body);
}

}  // namespace

std::string regression_draft(const CaseRecord& m) {
  const Judgement& j = m.judgement;
  if (j.verdict == Verdict::agree) return "";
  const Outcome* engine = find(m.outcomes, "engine");
  std::string name;
  for (char ch : m.property + "_" + m.c.op)
    name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  std::string out = fmt::format("// broadcheck finding: {}\n// case: {}\n", j.signature, to_json(m.c).dump());
  if (j.odd_ones == std::vector<std::string>{"document"} && m.c.expect) {
    out += "// The case's expectation is the document's claim; LibTorch does otherwise.\n";
    return out + torch_test(m.c, expected_outcome(*m.c.expect), name);
  }
  if (!engine) return out + "// No engine outcome to state the rule with.\n";
  // When the engine alone departs, the libraries are the reference: the draft is an engine test (below).
  const bool engine_alone = j.odd_ones == std::vector<std::string>{"engine"};
  bool any = false;
  for (const auto& [who, o] : m.outcomes) {
    if (engine_alone) break;
    // A library the judge names as departing (on values or gradients too), or whose outcome differs in kind.
    if ((who != "torch" && who != "xtensor") || o.status == Status::unsupported) continue;
    const bool odd = std::find(j.odd_ones.begin(), j.odd_ones.end(), who) != j.odd_ones.end();
    if (!odd && summarize(o) == summarize(*engine)) continue;
    out += "\n// " + who + " gives " + summarize(o) + (o.error ? " (\"" + o.error->message + "\")" : "") + "\n";
    out += who == "torch" ? torch_test(m.c, *engine, name) : xtensor_test(m.c, *engine, name);
    any = true;
  }
  if (!any) {
    // The engine departs (or only its message does): a test for tests/, holding the engine to LibTorch.
    const Outcome* torch = find(m.outcomes, "torch");
    const Outcome& want = torch ? *torch : *engine;
    out += fmt::format(
        "\n// The engine departs from LibTorch, the reference.\n#include <gtest/gtest.h>\n\n"
        "#include \"harness/case.h\"\n#include \"oracles/engine_oracle.h\"\n\n"
        "TEST(EngineRegression, {}) {{\n"
        "  const bc::Case c = bc::case_from_json(nlohmann::json::parse(R\"({})\"));\n"
        "  const bc::Outcome o = bc::make_engine_oracle()->run(c);\n"
        "  EXPECT_EQ(bc::summarize(o), \"{}\");\n",
        name, to_json(m.c).dump(), summarize(want));
    if (want.error) out += fmt::format("  EXPECT_EQ(o.error->message, R\"({})\");\n", want.error->message);
    out += "}\n";
  }
  return out;
}

}  // namespace bc
