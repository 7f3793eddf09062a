#include "oracles/protocol.h"

#include <algorithm>
#include <stdexcept>

#include "harness/corpus.h"
#include "harness/input_lines.h"
#include "harness/operands.h"
#include "oracles/engine_oracle.h"

namespace bc {
namespace {

using nlohmann::json;

// Compact JSON; a string that is not valid UTF-8 (it cannot come from a parsed corpus line) is repaired, not fatal.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A base in the protocol's encoding: bool as true/false, int64 as exact JSON integers, floats as numbers (-0.0
// keeps its sign) or "nan", "inf", "-inf" (harness/values.h).
json encode(const Values& v, DType t) {
  if (t != DType::bool_) return to_json(v);
  json out = json::array();
  for (int64_t b : v.ints()) out.push_back(b != 0);
  return out;
}

json operand_json(const Case& c, const OperandPlan& p) {
  if (p.number) return to_json(*p.number);  // {"number": 2.5}, as the case writes it in "shapes"
  json j = {{"dtype", to_string(p.dtype)}, {"layout", to_string(p.layout)}, {"shape", p.shape},
            {"strides", p.strides}, {"offset", p.offset}};
  if (p.views_operand >= 0) {
    j["views"] = p.views_operand;
    return j;
  }
  j["base_shape"] = p.base_shape;
  if (!c.values) return j;  // a shape-level case: the base holds zeros
  j["base"] = encode(p.base_values, p.dtype);
  return j;
}

// The upstream gradient in the protocol's encoding, or null when no backward runs under the rule.
json upstream_json(const Case& c) {
  const std::optional<Grad> g = rule_upstream(c);
  if (!g) return nullptr;
  return {{"shape", g->shape}, {"dtype", g->dtype}, {"values", encode(g->values, *dtype_from_string(g->dtype))}};
}

// The operands of an op that computes on tensors; none for the shape rules (broadcast_shapes, expand, sum_to),
// whose "shapes" may hold targets such as [-1, 3] and whose tensors hold zeros. With `upstream`, a gradient case's
// upstream gradient too (protocol 2).
json case_json(const Case& c, bool upstream) {
  json operands = json::array();
  if (computes_values(entry(c.op).family))
    for (const OperandPlan& p : plan_operands(c)) operands.push_back(operand_json(c, p));
  Case sent = c;
  sent.default_values = false;  // an adapter sees the values a gradient case runs on, even when its line gave none
  sent.extra = json::object();   // fields broadcheck does not know are the corpus's, not the protocol's
  json j = {{"case", to_json(sent)}, {"operands", std::move(operands)}};
  if (upstream && is_gradient_case(c))
    if (json u = upstream_json(c); !u.is_null()) j["upstream"] = std::move(u);
  return j;
}

std::set<std::string> string_set(const json& hello, const char* key) {
  const json& caps = hello.at("capabilities");
  if (!caps.contains(key) || !caps[key].is_array())
    throw std::runtime_error(std::string("\"capabilities.") + key + "\" must be an array of strings");
  std::set<std::string> out;
  for (const json& v : caps[key]) {
    if (!v.is_string()) throw std::runtime_error(std::string("\"capabilities.") + key + "\" holds a non-string");
    out.insert(v.get<std::string>());
  }
  return out;
}

// The values of an answer, read as the dtype's kind (harness/values.h); an element may also be an integer
// written as a decimal string ("-9223372036854775808"), for JSON libraries without 64-bit integers.
Values decode_all(const json& values, const std::string& dtype, const char* what) {
  if (!values.is_array()) throw std::runtime_error(std::string("\"") + what + "\" must be an array");
  json plain = json::array();
  for (const json& v : values) {
    if (!v.is_string() || v == "nan" || v == "inf" || v == "-inf") {
      plain.push_back(v);
      continue;
    }
    const std::string s = v.get<std::string>();
    size_t used = 0;
    long long n = 0;
    try {
      n = std::stoll(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size()) throw std::runtime_error("not a value: " + v.dump());
    plain.push_back(static_cast<int64_t>(n));
  }
  return values_from_json(plain, holds_integers(dtype));
}

// A message sent as "message_latin1" stands for bytes (each code point U+0000..U+00FF is one byte): how an adapter
// passes on a library message that is not valid UTF-8.
std::string latin1_bytes(const std::string& utf8) {
  std::string out;
  for (size_t k = 0; k < utf8.size(); ++k) {
    const auto b = static_cast<unsigned char>(utf8[k]);
    if (b < 0x80) {
      out += static_cast<char>(b);
    } else if ((b == 0xC2 || b == 0xC3) && k + 1 < utf8.size()) {
      out += static_cast<char>(((b & 0x03) << 6) | (static_cast<unsigned char>(utf8[++k]) & 0x3F));
    } else {
      throw std::runtime_error("\"message_latin1\" holds a character above U+00FF");
    }
  }
  return out;
}

// A text of the answer's (detail, message, warning), refused past kMaxAnswerText bytes.
std::string bounded_text(const json& j, const char* what) {
  std::string text = j.get<std::string>();
  if (text.size() > kMaxAnswerText)
    throw std::runtime_error(std::string("\"") + what + "\" holds " + std::to_string(text.size()) + " bytes; the limit is " +
                             std::to_string(kMaxAnswerText));
  return text;
}

Outcome outcome_of(const json& j, const Case& c) {
  if (!j.is_object()) throw std::runtime_error("an outcome must be a JSON object");
  const std::string status = j.at("status").get<std::string>();
  const std::optional<Status> st = status_from_string(status);
  if (!st) throw std::runtime_error("unknown status \"" + status + "\"");
  Outcome o;
  o.status = *st;
  if (j.contains("detail")) o.detail = bounded_text(j["detail"], "detail");
  if (j.contains("warnings")) {
    if (!j["warnings"].is_array()) throw std::runtime_error("\"warnings\" must be an array of strings");
    for (const json& w : j["warnings"]) o.warnings.push_back(bounded_text(w, "warnings"));
  }
  if (o.status == Status::error) {
    const json e = j.value("error", json::object());
    const std::string kind = e.value("kind", "other");
    const std::optional<ErrorKind> k = error_kind_from_string(kind);
    if (!k) throw std::runtime_error("unknown error kind \"" + kind + "\"; valid: " + error_kind_names());
    o.error = Error{*k, e.contains("message_latin1") ? latin1_bytes(bounded_text(e["message_latin1"], "message_latin1"))
                    : e.contains("message")          ? bounded_text(e["message"], "message")
                                                     : std::string()};
  }
  if (o.status != Status::ok) return o;
  o.shape = j.at("shape").get<Shape>();
  for (int64_t d : o.shape)
    if (d < 0) throw std::runtime_error("a negative size in shape " + j["shape"].dump());
  o.dtype = j.at("dtype").get<std::string>();
  if (!dtype_from_string(o.dtype)) throw std::runtime_error("unknown dtype \"" + o.dtype + "\"");
  if (c.values) {
    o.values = decode_all(j.value("values", json::array()), o.dtype, "values");  // may be left out for an empty result
    if (static_cast<int64_t>(o.values.size()) != numel(o.shape))
      throw std::runtime_error(std::to_string(o.values.size()) + " values for shape " + format_shape(o.shape));
  }
  if (j.contains("grads")) {
    for (const json& g : j["grads"]) {
      if (g.is_null()) {
        o.grads.push_back(std::nullopt);
        continue;
      }
      const std::string dtype = g.at("dtype").get<std::string>();
      o.grads.push_back(Grad{g.at("shape").get<Shape>(), dtype, decode_all(g.at("values"), dtype, "grads.values")});
    }
  }
  return o;
}

// Refuses a line whose arrays and objects nest deeper than kMaxJsonDepth, before it is parsed (a parser's work and
// memory on a hostile line), with the scan every input text gets (harness/input_lines.h).
void check_depth(const std::string& line, const std::string& what) {
  if (!nesting_problem(line, kMaxJsonDepth).empty())
    throw std::runtime_error(what + " nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

// A line of the adapter's as a JSON object; `what` names it in the error ("the answer is not JSON: ...").
json parse_object(const std::string& line, const std::string& what) {
  check_depth(line, what);
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {
    throw std::runtime_error(what + " is not JSON: " + e.what());
  }
  if (!j.is_object()) throw std::runtime_error(what + " must be a JSON object");
  return j;
}

}  // namespace

std::string hello_line() {
  json versions = json::array();
  for (int v = kOldestProtocol; v <= kNewestProtocol; ++v) versions.push_back(v);
  return dump({{"protocol", kOldestProtocol}, {"hello", "broadcheck"}, {"protocols", std::move(versions)}});
}

Capabilities capabilities_from_hello(const std::string& line) {
  const json hello = parse_object(line, "the handshake");
  const json version = hello.value("protocol", json());
  if (!version.is_number_integer() || version.get<int64_t>() < kOldestProtocol || version.get<int64_t>() > kNewestProtocol)
    throw std::runtime_error("the handshake speaks protocol " + version.dump() + "; this broadcheck speaks " +
                             std::to_string(kOldestProtocol) + " to " + std::to_string(kNewestProtocol));
  Capabilities caps;
  caps.protocol = version.get<int>();
  try {
    caps.name = hello.at("name").get<std::string>();
    caps.version = hello.at("version").get<std::string>();
    caps.ops = string_set(hello, "ops");
    caps.dtypes = string_set(hello, "dtypes");
    caps.layouts = string_set(hello, "layouts");
    caps.gradients = hello["capabilities"].value("gradients", false);
    caps.batch = hello["capabilities"].value("batch", false);
    caps.out = hello["capabilities"].value("out", false);
    caps.numbers = hello["capabilities"].value("numbers", false);
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("the handshake is malformed: ") + e.what());
  }
  // Names this broadcheck does not know (a newer adapter's) are set aside, not fatal: they are never asked for.
  auto set_aside = [&](std::set<std::string>& names, const char* what, auto known) {
    for (auto it = names.begin(); it != names.end();)
      if (known(*it)) {
        ++it;
      } else {
        caps.ignored.push_back(std::string(what) + " " + *it);
        it = names.erase(it);
      }
  };
  set_aside(caps.ops, "op", [](const std::string& n) { return find_op(n) != nullptr; });
  set_aside(caps.dtypes, "dtype", [](const std::string& n) { return dtype_from_string(n).has_value(); });
  set_aside(caps.layouts, "layout", [](const std::string& n) { return layout_from_string(n).has_value(); });
  return caps;
}

std::optional<std::string> undeclared(const Capabilities& caps, const Case& c) {
  const std::string prefix = "not declared by the adapter: ";
  if (!caps.ops.count(to_string(c.op))) return prefix + "op " + to_string(c.op);  // the adapter declares names
  if (has_numbers(c) && !caps.numbers) return prefix + "numbers";
  for (size_t k = 0; k < c.shapes.size(); ++k) {
    if (number_of(c, k)) continue;  // a number has its kind, not a dtype the adapter declares
    if (!caps.dtypes.count(to_string(dtype_of(c, k)))) return prefix + "dtype " + to_string(dtype_of(c, k));
    if (!caps.layouts.count(to_string(layout_of(c, k)))) return prefix + "layout " + to_string(layout_of(c, k));
  }
  if (is_gradient_case(c) && !caps.gradients) return prefix + "gradients";
  if (c.out && !caps.out) return prefix + "out";
  if (is_gradient_case(c) && c.grad_seed && !sends_upstream(caps))
    return std::string("an upstream gradient other than ones (grad_seed) is not in protocol 1");
  return std::nullopt;
}

bool sends_upstream(const Capabilities& caps) { return caps.protocol >= 2 && caps.gradients; }

json request_json(const Case& c, int64_t id, bool upstream) {
  json j = case_json(c, upstream);
  j["id"] = id;
  return j;
}

std::string request_line(const Case& c, int64_t id, bool upstream) { return dump(request_json(c, id, upstream)); }

std::string batch_line(const std::vector<const Case*>& cases, int64_t id, bool upstream) {
  json batch = json::array();
  for (const Case* c : cases) batch.push_back(case_json(*c, upstream));
  return dump({{"id", id}, {"batch", std::move(batch)}});
}

std::optional<Grad> upstream_of(const json& request) {
  if (!request.contains("upstream")) return std::nullopt;
  try {
    const json& u = request["upstream"];
    Grad g{u.at("shape").get<Shape>(), u.at("dtype").get<std::string>(), {}};
    if (!dtype_from_string(g.dtype)) throw std::runtime_error("unknown dtype \"" + g.dtype + "\"");
    g.values = decode_all(u.at("values"), g.dtype, "upstream.values");
    if (static_cast<int64_t>(g.values.size()) != numel(g.shape))
      throw std::runtime_error(std::to_string(g.values.size()) + " values for shape " + format_shape(g.shape));
    return g;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("the upstream gradient is malformed: ") + e.what());
  }
}

size_t answer_line_limit(const std::vector<const Case*>& cases) {
  size_t values = 0;
  for (const Case* c : cases) {
    if (!c->values) continue;
    values += static_cast<size_t>(kMaxElementsPerTensor);
    if (is_gradient_case(*c))
      for (const Shape& s : c->shapes) values += static_cast<size_t>(std::max<int64_t>(0, numel(s)));
  }
  return (size_t{1} << 20) + 32 * values;
}

std::vector<Case> cases_of_request(const std::string& line, int64_t& id) {
  const json request = parse_object(line, "the request");
  std::vector<Case> out;
  try {
    id = request.at("id").get<int64_t>();
    if (request.contains("batch"))
      for (const json& one : request["batch"]) out.push_back(case_from_json(one.at("case")));
    else
      out.push_back(case_from_json(request.at("case")));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("the request is malformed: ") + e.what());
  }
  return out;
}

std::vector<Outcome> outcomes_from_answer(const std::string& line, int64_t id, const std::vector<const Case*>& cases) {
  const json answer = parse_object(line, "the answer");
  if (answer.value("id", json()) != id)
    throw std::runtime_error("the answer has id " + answer.value("id", json()).dump() + ", expected " + std::to_string(id));
  std::vector<Outcome> out;
  try {
    if (answer.contains("outcomes")) {
      const json& all = answer["outcomes"];
      if (!all.is_array() || all.size() != cases.size())
        throw std::runtime_error("\"outcomes\" must hold " + std::to_string(cases.size()) + " outcomes");
      for (size_t k = 0; k < cases.size(); ++k) out.push_back(outcome_of(all[k], *cases[k]));
    } else {
      if (cases.size() != 1) throw std::runtime_error("a batch answer needs \"outcomes\"");
      out.push_back(outcome_of(answer.at("outcome"), *cases[0]));
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("the outcome is malformed: ") + e.what());
  }
  return out;
}

}  // namespace bc
