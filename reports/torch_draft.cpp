#include "reports/torch_draft.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "harness/operands.h"
#include "harness/tolerance.h"

namespace bc {
namespace {

// A double as C++ source that reads back as the same double (NAN, INFINITY and -0.0 included).
std::string literal(double v) {
  if (std::isnan(v)) return "NAN";
  if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
  std::string s = fmt::format("{:.17g}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// An int64 as C++ source: INT64_MIN has no literal (9223372036854775808 does not fit in a long before the minus).
std::string int_literal(int64_t v) {
  return v == std::numeric_limits<int64_t>::min() ? "INT64_MIN" : std::to_string(v);
}

// Integers (harness/values.h) as integer literals, floats as double literals.
std::string list(const Values& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + (values.integers() ? int_literal(values.ints()[i]) : literal(values.floats()[i]));
  return out + "}";
}

// The helper that builds a tensor from these values: make (through double) or make_ints (through int64, exact).
std::string maker(const Values& values) { return values.integers() ? "make_ints" : "make"; }

// The check that tensor `t` holds `values`: integers exactly, floats within the tolerance.
std::string values_check(const std::string& t, const Values& values, Tolerance tol) {
  if (values.integers()) return fmt::format("  EXPECT_TRUE(equal_ints({0}, {1})) << {0};\n", t, list(values));
  return fmt::format("  EXPECT_TRUE(close({0}, {1}, {2}, {3})) << {0};\n", t, list(values), literal(tol.rtol),
                     literal(tol.atol));
}

// A case's scalar as the Python value it stands for (an int or a float), as the oracle passes it.
std::string scalar(const Case& c, const std::string& name) {
  const Scalar s = scalar_of(c, name);
  return s.integral ? std::to_string(static_cast<int64_t>(s.value)) : literal(s.value);
}

// at::k<ScalarType>: LibTorch's own names (torch_name), float32 for an unknown one.
std::string scalar_type(const std::string& dtype) {
  const std::optional<DType> t = dtype_from_string(dtype);
  return std::string("at::k") + torch_name(t.value_or(DType::float32));
}

bool is_program(const OpEntry& op) {
  return op.family != Family::broadcast_shapes && op.family != Family::expand && op.family != Family::sum_to;
}

// How many operands are tensors (expand's and sum_to's second shape is a size list).
size_t tensor_count(const Case& c) {
  const Family f = entry(c.op).family;
  return f == Family::expand || f == Family::sum_to ? 1 : c.shapes.size();
}

bool requires_grad(const Case& c, size_t k) { return k < c.requires_grad.size() && c.requires_grad[k]; }

// The operands as harness/operands.h plans them: a base holding the values, then the view in the case's layout
// (a base that requires grad does so before its view is taken; a view that is not the base retains its grad).
std::string operand_lines(const Case& c) {
  std::string out;
  if (!is_program(entry(c.op))) {  // the shape-level families: float32 zeros, as the oracle builds them
    for (size_t k = 0; k < tensor_count(c); ++k)
      out += fmt::format("  at::Tensor t{} = at::zeros({});\n", k, braced(c.shapes[k]));
    return out;
  }
  const std::vector<OperandPlan> plans = plan_operands(c);
  for (size_t k = 0; k < tensor_count(c) && k < plans.size(); ++k) {
    const OperandPlan& p = plans[k];
    if (p.number) {  // an at::Scalar: the call below then takes LibTorch's Scalar overload, as the oracle does
      const Number& n = *p.number;
      const std::string value = n.kind == Number::Kind::boolean   ? (n.i ? "true" : "false")
                                : n.kind == Number::Kind::integer ? "int64_t{" + int_literal(n.i) + "}"
                                                                  : literal(n.f);
      out += fmt::format("  const at::Scalar t{} = {};\n", k, value);
      continue;
    }
    const bool plain = p.views_operand < 0 && p.layout == Layout::contiguous;
    const bool zeros = !c.values && p.dtype == DType::float32 && !requires_grad(c, k);
    if (plain && zeros) {
      out += fmt::format("  at::Tensor t{} = at::zeros({});\n", k, braced(p.shape));
      continue;
    }
    std::string base = fmt::format("b{}", k);
    if (p.views_operand >= 0) {
      base = fmt::format("b{}", p.views_operand);
    } else {
      out += fmt::format("  at::Tensor b{} = {}({}, {}, {}){};\n", k, maker(p.base_values), list(p.base_values),
                         braced(p.base_shape), scalar_type(to_string(p.dtype)),
                         requires_grad(c, k) ? ".requires_grad_()" : "");
    }
    // as_strided places a view anywhere in a storage: the overlapping layout, or a view of another operand's base.
    const std::string placed =
        fmt::format("{}.as_strided({}, {}, {})", base, braced(p.shape), braced(p.strides), p.offset);
    std::string view = base;
    switch (p.layout) {
      case Layout::contiguous: view = p.views_operand >= 0 ? placed : base; break;
      case Layout::transposed: view = base + ".transpose(-2, -1)"; break;
      case Layout::strided: view = fmt::format("{0}.slice(-1, 0, {0}.size(-1), 2)", base); break;
      case Layout::expanded: view = fmt::format("{}.expand({})", base, braced(p.shape)); break;
      case Layout::overlapping: view = placed; break;
    }
    out += fmt::format("  at::Tensor t{} = {};\n", k, view);
    const bool grad_from_base = requires_grad(c, p.views_operand >= 0 ? static_cast<size_t>(p.views_operand) : k);
    if (grad_from_base && view != base) out += fmt::format("  t{}.retain_grad();\n", k);
  }
  return out;
}

// The in-place modification and the backward call of a gradient case, after the forward gave `r`.
std::string after_forward(const Case& c, const Outcome& rule) {
  std::string out;
  if (c.modify) out += fmt::format("  t{}.add_(1);  // modified before backward\n", *c.modify);
  if (!is_gradient_case(c)) return out;
  const bool ones = !c.grad_seed || rule.status != Status::ok;
  if (ones) return out + "  r.backward(at::ones_like(r));\n";
  const DType type = dtype_from_string(rule.dtype).value_or(DType::float32);
  const Values upstream = upstream_values(c, type, numel(rule.shape));
  return out + fmt::format("  r.backward({}({}, r.sizes(), r.scalar_type()));\n", maker(upstream), list(upstream));
}

// Two more spaces before every line.
std::string indent(const std::string& lines) {
  std::string out;
  size_t start = 0;
  for (size_t end; (end = lines.find('\n', start)) != std::string::npos; start = end + 1)
    out += "  " + lines.substr(start, end - start + 1);
  return out;
}

std::string error_check(const Case& c, const Outcome& rule, const std::string& call) {
  const std::string what = rule.error ? to_string(rule.error->kind) : "any";
  if (!is_program(entry(c.op)) && !(rule.error && !rule.error->message.empty()))
    return fmt::format("  // The rule: an error ({}).\n  EXPECT_ANY_THROW({});\n", what, call);
  std::string out = fmt::format("  // The rule: an error ({}).\n  try {{\n    at::Tensor r = {};\n", what, call);
  out += indent(after_forward(c, rule));
  out += "    ADD_FAILURE() << \"no error; the result:\\n\" << r;\n  }";
  // LibTorch's checks throw c10::Error (its text without the backtrace is the message); a few paths throw a plain
  // std::exception (at::sum_to's view), as the oracle also sees.
  for (const char* type : {"c10::Error", "std::exception"}) {
    const std::string text = type == std::string("c10::Error") ? "e.what_without_backtrace()" : "e.what()";
    out += fmt::format(" catch (const {}& e) {{\n", type);
    if (rule.error && !rule.error->message.empty())
      out += fmt::format("    EXPECT_EQ(std::string({}), R\"__({})__\");\n", text, rule.error->message);
    else
      out += fmt::format("    SUCCEED() << {};\n", text);
    out += "  }";
  }
  return out + "\n";
}

std::string ok_check(const Case& c, const Outcome& rule, const std::string& call) {
  std::string out = fmt::format("  // The rule: {}.\n  at::Tensor r = {};\n", summarize(rule), call);
  out += fmt::format("  ASSERT_EQ(r.sizes(), at::IntArrayRef({}));\n", braced(rule.shape));
  if (!rule.dtype.empty()) out += fmt::format("  EXPECT_EQ(r.scalar_type(), {});\n", scalar_type(rule.dtype));
  const DType result_type = dtype_from_string(rule.dtype).value_or(DType::float32);
  if (c.values && static_cast<int64_t>(rule.values.size()) == numel(rule.shape))
    out += values_check("r", rule.values, tolerance_for(result_type));
  out += after_forward(c, rule);
  if (!is_gradient_case(c) || rule.grads.empty()) return out;
  std::vector<DType> dtypes;
  for (size_t k = 0; k < c.shapes.size(); ++k) dtypes.push_back(dtype_of(c, k));
  for (size_t k = 0; k < tensor_count(c); ++k) {
    if (!requires_grad(c, k)) continue;
    const std::optional<Grad>& g = k < rule.grads.size() ? rule.grads[k] : std::nullopt;
    if (!g) {
      out += fmt::format("  EXPECT_FALSE(t{}.grad().defined());\n", k);
      continue;
    }
    const int64_t n = numel(c.shapes[k]);
    const Tolerance tol = gradient_tolerance(dtypes, n > 0 ? numel(rule.shape) / n : 1);
    out += fmt::format("  ASSERT_TRUE(t{0}.grad().defined());\n"
                       "  ASSERT_EQ(t{0}.grad().sizes(), at::IntArrayRef({1}));\n"
                       "  EXPECT_EQ(t{0}.grad().scalar_type(), {2});\n",
                       k, braced(g->shape), scalar_type(g->dtype));
    out += values_check(fmt::format("t{}.grad()", k), g->values, tol);
  }
  return out;
}

// A graph case's program as one nested at:: expression (a value used twice is written twice, as it is computed).
std::string graph_call(const Case& c, int value) {
  const size_t n = c.shapes.size();
  if (static_cast<size_t>(value) < n) return "t" + std::to_string(value);
  const ProgramNode& node = c.program[static_cast<size_t>(value) - n];
  std::string args;
  for (size_t i = 0; i < node.args.size(); ++i) args += (i ? ", " : "") + graph_call(c, node.args[i]);
  return fmt::format("at::{}({})", to_string(node.op), args);
}

}  // namespace

std::string braced(const Shape& s) {
  std::string out = "{";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "}";
}

// A reduction's call with the case's dims (absent: no dim argument), keepdim and dtype=; none for a prod with
// another number of dims than one (LibTorch 1.13 has no such overload).
std::string reduction_call(const Case& c, const OpEntry& op) {
  const std::string keep = c.keepdim ? "true" : "false";
  const std::string dtype = c.dtype_arg ? scalar_type(to_string(*c.dtype_arg)) : "c10::nullopt";
  const std::string dims = c.dims ? "std::vector<int64_t>" + braced(*c.dims) : "";
  if (op.reduction->one_dim) {
    if (!c.dims) return c.keepdim ? "" : fmt::format("at::{}(t0, {})", op.name, dtype);
    if (c.dims->size() != 1) return "";
    return fmt::format("at::{}(t0, {}, {}, {})", op.name, (*c.dims)[0], keep, dtype);
  }
  if (!op.reduction->takes_dtype) return fmt::format("at::{}(t0, at::IntArrayRef({}), {})", op.name, c.dims ? dims : "{}", keep);
  const std::string dim = c.dims ? "at::OptionalIntArrayRef(" + dims + ")" : "c10::nullopt";
  return fmt::format("at::{}(t0, {}, {}, {})", op.name, dim, keep, dtype);
}

namespace {

// The pointwise ops' call: unary, addcmul/addcdiv (value), binary or ternary (alpha where the op reads it), in
// place, or the out= form.
std::string pointwise_call(const Case& c, const OpEntry& op) {
  const char* n = op.name;
  const bool inplace = op.family == Family::inplace;
  if (takes_scalar(c.op, "value"))  // addcmul, addcdiv
    return fmt::format(inplace ? "t0.{}(t1, t2, {})" : "at::{}(t0, t1, t2, {})", n, scalar(c, "value"));
  if (op.arity == 1) return fmt::format("at::{}(t0)", n);  // the unary ops
  const std::string args = op.arity == 3 ? "t1, t2" : "t1";
  const bool alpha = takes_scalar(c.op, "alpha") && c.scalars.count("alpha");
  const std::string tail = alpha ? ", " + scalar(c, "alpha") : "";
  if (c.out) {  // the out= form: a zero-filled out of the case's shape and dtype, written by the op's _out call
    const std::string type = scalar_type(to_string(c.out->dtype));
    return fmt::format("[&] {{ at::Tensor out = at::zeros({}, {}); at::{}_out(out, t0, {}{}); return out; }}()",
                       braced(c.out->shape), type, n, args, tail);
  }
  return inplace ? fmt::format("t0.{}({}{})", n, args, tail) : fmt::format("at::{}(t0, {}{})", n, args, tail);
}

}  // namespace

std::string torch_call(const Case& c) {
  const OpEntry& op = entry(c.op);
  const char* n = op.name;
  const bool inplace = is_inplace(c.op);
  switch (op.family) {
    case Family::broadcast_shapes: {
      std::string ts;
      for (size_t i = 0; i < c.shapes.size(); ++i) ts += (i ? ", t" : "t") + std::to_string(i);
      return "at::broadcast_tensors({" + ts + "})[0]";
    }
    case Family::expand: return "t0.expand(" + braced(c.shapes[1]) + ")";
    case Family::sum_to: return "at::sum_to(t0, at::IntArrayRef(" + braced(c.shapes[1]) + "))";
    case Family::matmul: return fmt::format("at::{}(t0, t1)", n);
    case Family::fused:
      return fmt::format(inplace ? "t0.{}(t1, t2, {}, {})" : "at::{}(t0, t1, t2, {}, {})", n, scalar(c, "beta"),
                         scalar(c, "alpha"));
    case Family::unfused: {
      const bool mul = out_of_place(c.op) == Op::unfused_addcmul;
      const std::string product = fmt::format("at::{}(t1, t2)", mul ? "mul" : "div");
      return fmt::format(inplace ? "t0.add_({}, {})" : "at::add(t0, {}, {})", product, scalar(c, "value"));
    }
    case Family::autograd:
      if (c.op == Op::diamond) return "at::mul(at::add(t0, t1), t0)";
      if (c.op == Op::graph && !c.program.empty())
        return graph_call(c, static_cast<int>(c.shapes.size() + c.program.size() - 1));
      return "";  // no draft
    case Family::reduction: return fmt::format("at::{}(t0, t1)", n);  // dist
    case Family::reduce_dims: return reduction_call(c, op);
    case Family::fill: return op.fill->reads_value ? "t0.fill_(" + scalar(c, "value") + ")" : "t0.zero_()";
    case Family::elementwise: case Family::inplace: return pointwise_call(c, op);
  }
  return "";
}

std::string torch_draft(const Case& c, const Outcome& rule, const std::string& suite, const std::string& name) {
  const std::string call = torch_call(c);
  if (call.empty() || (rule.status != Status::ok && rule.status != Status::error)) return "";
  std::string body = operand_lines(c);
  const bool helpers = body.find("make(") != std::string::npos || c.values || is_gradient_case(c);
  if (rule.status == Status::error)
    body += error_check(c, rule, call);
  else  // an unexpected error is reported with LibTorch's message, not its C++ backtrace
    body += "  try {\n" + indent(ok_check(c, rule, call)) +
            "  } catch (const c10::Error& e) {\n"
            "    FAIL() << \"LibTorch raised: \" << e.what_without_backtrace();\n  }\n";
  // Integers go through int64 and are compared exactly: a double would change 9007199254740993 or INT64_MAX.
  const bool int_helpers = body.find("make_ints(") != std::string::npos || body.find("equal_ints(") != std::string::npos;
  if (int_helpers)
    body = "  auto make_ints = [](std::vector<int64_t> v, at::IntArrayRef shape, at::ScalarType type) {\n"
           "    return at::tensor(v, at::kLong).to(type).reshape(shape).clone();\n"
           "  };\n"
           "  auto equal_ints = [&](const at::Tensor& got, std::vector<int64_t> want) {\n"
           "    return got.to(at::kLong).equal(make_ints(want, got.sizes(), at::kLong));\n"
           "  };\n" + body + "  (void)make_ints;\n  (void)equal_ints;\n";
  if (helpers)
    body = "  auto make = [](std::vector<double> v, at::IntArrayRef shape, at::ScalarType type) {\n"
           "    // clone(): a tensor of its own, not a view, so that requires_grad_() makes a leaf\n"
           "    return at::tensor(v, at::kDouble).to(type).reshape(shape).clone();\n"
           "  };\n"
           "  auto close = [&](const at::Tensor& got, std::vector<double> want, double rtol, double atol) {\n"
           "    return at::allclose(got.to(at::kDouble), make(want, got.sizes(), at::kDouble), rtol, atol, true);\n"
           "  };\n" + body + "  (void)make;\n  (void)close;\n";
  return fmt::format("#include <ATen/ATen.h>\n#include <ATen/ExpandUtils.h>\n#include <gtest/gtest.h>\n\n#include "
                     "<cmath>\n#include <cstdint>\n#include <string>\n#include <vector>\n\nTEST({}, {}) {{\n{}}}\n",
                     suite, name, body);
}

}  // namespace bc
