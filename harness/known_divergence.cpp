#include "harness/known_divergence.h"

#include "harness/case_conditions.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "harness/implementations.h"
#include "harness/input_lines.h"
#include "harness/join.h"
#include "harness/processor.h"
#include "harness/utf8.h"

namespace bc {

bool OutcomePattern::matches(const Outcome& o) const {
  if (status && o.status != *status) return false;
  if (error && (!o.error || o.error->kind != *error)) return false;
  return true;
}

bool Declaration::covers_op(Op op) const {
  if (!cpu.empty() && !processor_lacks(cpu).empty()) return false;
  if (ops.empty()) return true;
  return std::any_of(ops.begin(), ops.end(), [&](const std::string& listed) {
    return listed[0] == '@' ? in_op_group(listed, op).value_or(false) : op_from_name(listed) == op;
  });
}

bool Declaration::explains(const std::string& component) const {
  if (difference.empty()) return true;
  for (size_t start = 0;;) {
    const size_t bar = difference.find('|', start);
    if (difference.compare(start, bar == std::string::npos ? std::string::npos : bar - start, component) == 0) return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

bool Declaration::covers(const Case& c) const { return covers_op(c.op) && covers_beyond_op(c); }

bool Declaration::covers_beyond_op(const Case& c) const {
  if (!case_ids.empty() && std::find(case_ids.begin(), case_ids.end(), c.id) == case_ids.end()) return false;
  if (!when.empty() && !case_has(when, c)) return false;
  if (rank0 && std::none_of(c.shapes.begin(), c.shapes.end(), [](const Shape& s) { return s.empty(); })) return false;
  if (empty && std::none_of(c.shapes.begin(), c.shapes.end(), [](const Shape& s) { return numel(s) == 0; }))
    return false;
  for (const auto& [name, want] : scalars)
    if (scalar_of(c, name).value != want.value) return false;
  if (dtypes.empty()) return true;
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (std::find(dtypes.begin(), dtypes.end(), dtype_of(c, k)) != dtypes.end()) return true;
  return false;
}

namespace {

OutcomePattern pattern_from_json(const nlohmann::json& j, const std::string& field) {
  if (!j.is_object()) throw CaseError("\"" + field + "\" must be an object like {\"status\": \"error\", \"error\": \"broadcast\"}");
  OutcomePattern p;
  for (const auto& [key, value] : j.items()) {
    if (key == "status") {
      p.status = status_from_string(value.get<std::string>());
      if (!p.status) throw CaseError("unknown status " + value.dump() + " in \"" + field + "\"; valid: ok, error, crash, timeout, unsupported");
    } else if (key == "error") {
      p.error = error_kind_from_string(value.get<std::string>());
      if (!p.error) throw CaseError("unknown error kind " + value.dump() + " in \"" + field + "\"; valid: " + error_kind_names());
      p.status = Status::error;
    } else {
      throw CaseError("unknown field \"" + field + "." + key + "\"; valid: status, error");
    }
  }
  return p;
}

nlohmann::json pattern_to_json(const OutcomePattern& p) {
  nlohmann::json j = nlohmann::json::object();
  if (p.status) j["status"] = to_string(*p.status);
  if (p.error) j["error"] = to_string(*p.error);
  return j;
}

}  // namespace

std::vector<std::string> inactive_oracles(const std::vector<Declaration>& declarations) {
  std::vector<std::string> out;
  for (const Declaration& d : declarations)
    if (d.oracle != "document" && !find_implementation(d.oracle) &&
        std::find(out.begin(), out.end(), d.oracle) == out.end())
      out.push_back(d.oracle);
  return out;
}

std::vector<std::string> inactive_on_this_processor(const std::vector<Declaration>& declarations) {
  std::vector<std::string> out;
  for (const Declaration& d : declarations)
    if (const std::vector<std::string> lacking = processor_lacks(d.cpu); !lacking.empty())
      out.push_back(d.id + " (needs " + join(lacking, ", ") + ")");
  return out;
}

const std::vector<std::string>& difference_components() {
  static const std::vector<std::string> names = {"status", "error kind", "signal",     "shape",
                                                 "dtype",  "warnings",   "values",     "grad shape",
                                                 "grads",  "grad values", "signed zeros", "finite differences"};
  return names;
}

Declaration declaration_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw CaseError("a declaration must be a JSON object");
  Declaration d;
  auto str = [&](const char* key, bool required) -> std::string {
    if (!j.contains(key)) {
      if (required) throw CaseError(std::string("missing \"") + key + "\"");
      return "";
    }
    if (!j[key].is_string()) throw CaseError(std::string("\"") + key + "\" must be a string");
    return j[key].get<std::string>();
  };
  d.id = str("id", true);
  d.oracle = str("oracle", true);
  // Any well-formed name: a declaration may name an implementation that does not take part in this run (an
  // optional adapter that is not installed); inactive_oracles() lists those.
  const bool well_formed = !d.oracle.empty() && std::all_of(d.oracle.begin(), d.oracle.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
  });
  if (!well_formed)
    throw CaseError("\"oracle\" must be an implementation's name (lower-case letters, digits, _ and -), such as " +
                    implementation_names() + " or document; got \"" + d.oracle + "\"");
  d.reason = str("reason", true);
  d.reference = str("reference", true);
  if (j.contains("on")) d.on = str("on", false);
  d.difference = str("difference", false);
  std::istringstream parts(d.difference);
  for (std::string part; std::getline(parts, part, '|');) {
    const std::vector<std::string>& names = difference_components();
    if (std::find(names.begin(), names.end(), part) == names.end())
      throw CaseError("unknown component \"" + part + "\" in \"difference\"; valid (several as a|b): " + join(names, ", "));
  }
  d.when = str("when", false);
  if (!d.when.empty()) {
    const std::vector<std::string>& names = case_condition_names();
    if (std::find(names.begin(), names.end(), d.when) == names.end())
      throw CaseError("unknown condition \"" + d.when + "\" in \"when\"; valid: " + join(names, ", "));
  }
  if (d.on != "outcome" && d.on != "message" && d.on != "values" && d.on != "grads" && d.on != "equivalence" &&
      d.on != "nondeterministic")
    throw CaseError("\"on\" must be \"outcome\", \"values\", \"grads\", \"message\", \"equivalence\" or "
                    "\"nondeterministic\"");
  for (const auto& [key, flag] : {std::pair<const char*, bool*>{"empty", &d.empty}, {"rank0", &d.rank0}}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_boolean()) throw CaseError(std::string("\"") + key + "\" must be true or false");
    *flag = j[key].get<bool>();
  }
  std::vector<std::string> dtype_names_given;
  for (const char* key : {"ops", "case_ids", "dtypes", "cpu"}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_array()) throw CaseError(std::string("\"") + key + "\" must be an array of strings");
    const std::string k = key;
    auto& list = k == "ops" ? d.ops : k == "dtypes" ? dtype_names_given : k == "cpu" ? d.cpu : d.case_ids;
    for (const auto& v : j[key]) list.push_back(v.get<std::string>());
  }
  for (const std::string& f : d.cpu) {
    const std::vector<std::string>& names = processor_feature_names();
    if (std::find(names.begin(), names.end(), f) == names.end())
      throw CaseError("unknown processor feature \"" + f + "\" in \"cpu\"; valid: " + join(names, ", "));
  }
  for (const std::string& t : dtype_names_given) {
    const std::optional<DType> dtype = dtype_from_string(t);
    if (!dtype) throw CaseError("unknown dtype \"" + t + "\" in \"dtypes\"; valid dtypes: " + dtype_names());
    d.dtypes.push_back(*dtype);
  }
  for (const std::string& op : d.ops) {
    if (op.empty()) throw CaseError("an empty op name in \"ops\"");
    if (op[0] == '@' && !in_op_group(op, Op::add))
      throw CaseError("unknown op group \"" + op + "\" in \"ops\"; valid groups: " + op_group_names());
    if (op[0] != '@' && !find_op(op))
      throw CaseError("unknown op \"" + op + "\" in \"ops\"; valid ops: " + known_op_names());
  }
  if (j.contains("scalars")) {
    if (!j["scalars"].is_object()) throw CaseError("\"scalars\" must be an object such as {\"beta\": 0}");
    const std::vector<std::string>& names = scalar_names();
    for (const auto& [name, number] : j["scalars"].items()) {
      if (std::find(names.begin(), names.end(), name) == names.end())
        throw CaseError("unknown scalar \"" + name + "\" in \"scalars\"; valid: alpha, beta, value");
      if (!number.is_number()) throw CaseError("\"scalars." + name + "\" must be a number");
      d.scalars[name] = Scalar{number.get<double>(), number.is_number_integer()};
    }
  }
  if (j.contains("expected")) d.expected = pattern_from_json(j["expected"], "expected");
  if (j.contains("actual")) d.actual = pattern_from_json(j["actual"], "actual");
  // A nondeterministic implementation has no one "actual" outcome: the declaration covers cases, it names none.
  if (d.on == "nondeterministic") {
    const auto no_meaning = [](const std::string& key) {
      return CaseError("\"" + key + "\" has no meaning with \"on\": \"nondeterministic\"");
    };
    if (d.expected.status || d.expected.error) throw no_meaning("expected");
    if (d.actual.status || d.actual.error) throw no_meaning("actual");
    if (!d.difference.empty()) throw no_meaning("difference");
  }
  if (d.on == "nondeterministic" && d.oracle == "document")
    throw CaseError("\"on\": \"nondeterministic\" names an implementation, not the document");
  for (const auto& [key, value] : j.items()) {
    static const std::vector<std::string> known = {"id",     "oracle", "ops",    "case_ids",  "on",
                                                   "expected", "actual", "reason", "reference", "difference", "dtypes",
                                                   "empty", "rank0", "scalars", "when", "cpu"};
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw CaseError("unknown field \"" + key + "\" in a declaration");
  }
  return d;
}

nlohmann::json to_json(const Declaration& d) {
  nlohmann::json j = {{"id", d.id}, {"oracle", d.oracle}, {"on", d.on}, {"reason", d.reason}, {"reference", d.reference},
                      {"expected", pattern_to_json(d.expected)}, {"actual", pattern_to_json(d.actual)}};
  if (!d.ops.empty()) j["ops"] = d.ops;
  if (!d.case_ids.empty()) j["case_ids"] = d.case_ids;
  for (DType t : d.dtypes) j["dtypes"].push_back(to_string(t));
  if (!d.difference.empty()) j["difference"] = d.difference;
  if (d.empty) j["empty"] = true;
  if (d.rank0) j["rank0"] = true;
  if (!d.when.empty()) j["when"] = d.when;
  if (!d.cpu.empty()) j["cpu"] = d.cpu;
  for (const auto& [name, s] : d.scalars)
    j["scalars"][name] = s.integral ? nlohmann::json(static_cast<int64_t>(s.value)) : nlohmann::json(s.value);
  return j;
}

Declaration parse_declaration_text(const std::string& text) {
  nlohmann::json j;
  try {
    j = parse_input_json(text);
  } catch (const InputError& e) {
    throw CaseError(e.what());
  }
  try {
    return declaration_from_json(j);
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong JSON type deep inside
    throw CaseError(std::string("a field has the wrong type: ") + e.what());
  }
}

DeclarationLoad read_declarations(const std::string& path) {
  DeclarationLoad load;
  std::set<std::string> ids;
  const auto refuse = [&](int n, const std::string& why) {
    load.errors.push_back(visible_utf8(path + ":" + std::to_string(n) + ": " + why));
  };
  const std::string unreadable = read_input_lines(path, [&](int n, const std::string& line) {
    try {
      Declaration d = parse_declaration_text(line);
      if (!ids.insert(d.id).second) throw CaseError("duplicate id \"" + d.id + "\"");
      d.line = n;
      load.declarations.push_back(std::move(d));
    } catch (const CaseError& e) {
      refuse(n, e.what());
    }
  }, refuse);
  if (!unreadable.empty()) load.errors.insert(load.errors.begin(), unreadable);
  return load;
}

std::vector<Declaration> load_declarations(const std::string& path) {
  DeclarationLoad load = read_declarations(path);
  if (!load.errors.empty()) {
    std::string all;
    for (const std::string& e : load.errors) all += (all.empty() ? "" : "\n") + e;
    throw CaseError(all);
  }
  return std::move(load.declarations);
}

}  // namespace bc
