#include "harness/case.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "harness/element_count.h"
#include "harness/join.h"

namespace bc {

const char* to_string(Layout l) {
  switch (l) {
    case Layout::contiguous: return "contiguous";
    case Layout::transposed: return "transposed";
    case Layout::strided: return "strided";
    case Layout::expanded: return "expanded";
    case Layout::overlapping: return "overlapping";
  }
  return "contiguous";
}

const std::vector<Layout>& all_layouts() {
  static const std::vector<Layout> all = {Layout::contiguous, Layout::transposed, Layout::strided, Layout::expanded,
                                          Layout::overlapping};
  return all;
}

std::optional<Layout> layout_from_string(const std::string& name) {
  for (Layout l : all_layouts())
    if (name == to_string(l)) return l;
  return std::nullopt;
}

std::string layout_names() {
  std::vector<std::string> names;
  for (Layout l : all_layouts()) names.push_back(to_string(l));
  return join(names, ", ");
}

bool is_gradient_case(const Case& c) {
  for (bool b : c.requires_grad)
    if (b) return true;
  return false;
}

const std::vector<std::string>& scalar_names() {
  static const std::vector<std::string> names = {"alpha", "beta", "value"};
  return names;
}

Scalar scalar_of(const Case& c, const std::string& name) {
  const auto it = c.scalars.find(name);
  return it == c.scalars.end() ? Scalar{} : it->second;
}

ReduceArgs reduce_args(const Case& c) { return ReduceArgs{c.dims, c.keepdim, c.dtype_arg}; }

DType dtype_of(const Case& c, size_t k) {
  if (const Number* n = number_of(c, k)) return n->dtype();
  return k < c.dtypes.size() ? c.dtypes[k] : DType::float32;
}
Layout layout_of(const Case& c, size_t k) {
  if (number_of(c, k)) return Layout::contiguous;
  return k < c.layouts.size() ? c.layouts[k] : Layout::contiguous;
}

const OpEntry* find_op(const std::string& name) {
  const std::optional<Op> op = op_from_name(name);
  return op ? &entry(*op) : nullptr;
}

std::string known_op_names() {
  std::string out;
  for (const OpEntry& e : op_table()) out += (out.empty() ? "" : ", ") + std::string(e.name);
  return out;
}

namespace {

Shape shape_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_array()) throw CaseError(where + " must be an array of integers, got " + j.dump());
  Shape s;
  for (const auto& d : j) {
    if (!d.is_number_integer()) throw CaseError(where + " must be an array of integers, got " + j.dump());
    if (d.is_number_unsigned() && d.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      throw CaseError(where + " has a size too large for a 64-bit signed integer: " + d.dump());
    s.push_back(d.get<int64_t>());
  }
  return s;
}

std::string string_field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return "";
  if (!j[key].is_string()) throw CaseError(std::string("\"") + key + "\" must be a string");
  return j[key].get<std::string>();
}

Expectation expectation_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw CaseError("\"expect\" must be an object such as {\"shape\": [2, 3]} or {\"error\": \"broadcast\"}");
  Expectation e;
  for (const auto& [key, value] : j.items()) {
    if (key == "shape") {
      e.shape = shape_from_json(value, "\"expect.shape\"");
    } else if (key == "error") {
      if (value.is_boolean() && value.get<bool>()) {
        e.any_error = true;
      } else if (value.is_string()) {
        e.error = error_kind_from_string(value.get<std::string>());
        if (!e.error)
          throw CaseError("unknown error kind \"" + value.get<std::string>() + "\" in \"expect.error\"; valid kinds: " +
                          error_kind_names() + " (or true for any error)");
      } else {
        throw CaseError("\"expect.error\" must be an error kind or true");
      }
    } else if (key == "message") {
      if (!value.is_string()) throw CaseError("\"expect.message\" must be a string");
      e.message = value.get<std::string>();
    } else if (key == "grads") {
      const char* form = "\"expect.grads\" must be an array with, per operand, null or {\"shape\": [...], \"values\": [...]}";
      if (!value.is_array()) throw CaseError(form);
      for (const auto& g : value) {
        if (g.is_null()) {
          e.grads.push_back(std::nullopt);
          continue;
        }
        if (!g.is_object() || !g.contains("shape")) throw CaseError(form);
        ExpectedGrad eg{shape_from_json(g["shape"], "\"expect.grads[].shape\""), {}};
        if (g.contains("values")) {
          if (!g["values"].is_array()) throw CaseError(form);
          for (const auto& v : g["values"]) {
            if (!v.is_number()) throw CaseError(form);
            eg.values.push_back(v.get<double>());
          }
        }
        e.grads.push_back(eg);
      }
    } else {
      throw CaseError("unknown field \"expect." + key + "\"; valid: shape, error, message, grads");
    }
  }
  if (e.shape && (e.any_error || e.error)) throw CaseError("\"expect\" gives both a shape and an error");
  if (!e.shape && !e.any_error && !e.error) throw CaseError("\"expect\" needs \"shape\" or \"error\"");
  if (e.message && e.shape) throw CaseError("\"expect.message\" goes with an error");
  if (!e.grads.empty() && !e.shape) throw CaseError("\"expect.grads\" goes with a shape");
  return e;
}

// A number operand stands where the op takes one (may_be_number); it has no layout or gradient, and a "dtypes"
// entry for it, when given, names its kind's dtype.
void check_numbers(Case& c) {
  if (!has_numbers(c)) {
    c.numbers.clear();
    return;
  }
  for (size_t k = 0; k < c.numbers.size(); ++k) {
    if (!c.numbers[k]) continue;
    const std::string at = "\"shapes[" + std::to_string(k) + "]\" is a number";
    if (!may_be_number(c.op, k))
      throw CaseError(at + ", but " + to_string(c.op) + " takes a number only as the second operand of a pointwise "
                      "binary op or the second or third of where");
    if (k < c.dtypes.size() && c.dtypes[k] != c.numbers[k]->dtype())
      throw CaseError(at + ": its dtype is its kind's, " + to_string(c.numbers[k]->dtype()) + ", not " +
                      to_string(c.dtypes[k]));
    if (k < c.layouts.size() && c.layouts[k] != Layout::contiguous)
      throw CaseError(at + ": it has no layout (write \"contiguous\")");
    if (k < c.requires_grad.size() && c.requires_grad[k]) throw CaseError(at + ": it cannot require grad");
    if (c.modify && *c.modify == static_cast<int>(k)) throw CaseError(at + ": \"modify\" cannot write it");
  }
}

}  // namespace

Case case_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw CaseError("a case must be a JSON object");
  Case c;
  c.extra = nlohmann::json::object();
  std::string op_name;
  for (const auto& [key, value] : j.items()) {
    if (key == "id") c.id = string_field(j, "id");
    else if (key == "op") op_name = string_field(j, "op");
    else if (key == "property") c.property = string_field(j, "property");
    else if (key == "source") c.source = string_field(j, "source");
    else if (key == "note") c.note = string_field(j, "note");
    else if (key == "expect") c.expect = expectation_from_json(value);
    else if (key == "tags") {
      if (!value.is_array()) throw CaseError("\"tags\" must be an array of strings");
      for (const auto& t : value) {
        if (!t.is_string()) throw CaseError("\"tags\" must be an array of strings");
        c.tags.push_back(t.get<std::string>());
      }
    } else if (key == "dtypes" || key == "layouts") {
      if (!value.is_array()) throw CaseError("\"" + key + "\" must be an array of names, one per operand");
      for (const auto& name : value) {
        if (!name.is_string()) throw CaseError("\"" + key + "\" must be an array of names, one per operand");
        const std::string n = name.get<std::string>();
        if (key == "dtypes") {
          auto t = dtype_from_string(n);
          if (!t) throw CaseError("unknown dtype \"" + n + "\"; valid dtypes: " + dtype_names());
          c.dtypes.push_back(*t);
        } else {
          auto l = layout_from_string(n);
          if (!l) throw CaseError("unknown layout \"" + n + "\"; valid layouts: " + layout_names());
          c.layouts.push_back(*l);
        }
      }
    } else if (key == "scalars") {
      if (!value.is_object()) throw CaseError("\"scalars\" must be an object such as {\"alpha\": 2}");
      for (const auto& [name, number] : value.items()) {
        const auto& names = scalar_names();
        if (std::find(names.begin(), names.end(), name) == names.end())
          throw CaseError("unknown scalar \"" + name + "\"; valid: alpha, beta, value");
        // NaN and the infinities are written as values are: "nan", "inf", "-inf" (fill_'s value).
        const bool non_finite = number.is_string() && (number == "nan" || number == "inf" || number == "-inf");
        if (!number.is_number() && !non_finite)
          throw CaseError("\"scalars." + name + "\" must be a number (or \"nan\", \"inf\", \"-inf\")");
        c.scalars[name] = non_finite ? Scalar{values_from_json(nlohmann::json::array({number}), false).floats()[0], false}
                                     : Scalar{number.get<double>(), number.is_number_integer()};
      }
    } else if (key == "values") {
      const char* form = "\"values\" must be an object such as {\"seed\": 7}, {\"seed\": 7, \"special\": true} or "
                         "{\"data\": [[1, 2], [3]]}";
      if (!value.is_object()) throw CaseError(form);
      ValueSpec v;
      for (const auto& [name, x] : value.items()) {
        if (name == "seed" && x.is_number_unsigned()) v.seed = x.get<uint64_t>();
        else if (name == "special" && x.is_boolean()) v.special = x.get<bool>();
        else if (name == "class") {
          const std::optional<ValueClass> cls = x.is_string() ? value_class_from_string(x.get<std::string>()) : std::nullopt;
          if (!cls) throw CaseError("\"values\" \"class\" must be one of " + value_class_names());
          v.value_class = cls;
        }
        else if (name == "data" && x.is_array()) {
          for (const auto& operand : x) {
            if (!operand.is_array()) throw CaseError(form);
            try {
              v.data.push_back(values_as_written(operand));  // integers stay int64_t, exactly (harness/values.h)
            } catch (const std::runtime_error&) {
              throw CaseError(form);
            }
          }
        } else throw CaseError(form);
      }
      if (!value.contains("seed") && !value.contains("data")) throw CaseError(form);
      c.values = v;
    } else if (key == "requires_grad") {
      if (!value.is_array()) throw CaseError("\"requires_grad\" must be an array of booleans, one per operand");
      for (const auto& b : value) {
        if (!b.is_boolean()) throw CaseError("\"requires_grad\" must be an array of booleans, one per operand");
        c.requires_grad.push_back(b.get<bool>());
      }
    } else if (key == "grad_seed") {
      if (!value.is_number_unsigned()) throw CaseError("\"grad_seed\" must be a non-negative integer");
      c.grad_seed = value.get<uint64_t>();
    } else if (key == "modify") {
      if (!value.is_number_integer() || value.get<int64_t>() < 0) throw CaseError("\"modify\" must be an operand index");
      c.modify = value.get<int>();
    } else if (key == "program") {
      // Parsed once the shapes are known (below).
    } else if (key == "out") {
      const char* form = "\"out\" must be an object such as {\"shape\": [2, 3], \"dtype\": \"float32\"}";
      if (!value.is_object() || !value.contains("shape")) throw CaseError(form);
      OutSpec out;
      for (const auto& [name, x] : value.items()) {
        if (name == "shape") out.shape = shape_from_json(x, "\"out.shape\"");
        else if (name == "dtype" && x.is_string()) {
          const auto t = dtype_from_string(x.get<std::string>());
          if (!t) throw CaseError("unknown dtype \"" + x.get<std::string>() + "\"; valid dtypes: " + dtype_names());
          out.dtype = *t;
        } else throw CaseError(form);
      }
      c.out = out;
    } else if (key == "dims") {
      const char* form = "\"dims\" must be an array of integers (a reduction's dims; [] is LibTorch's dim=[])";
      if (!value.is_array()) throw CaseError(form);
      c.dims.emplace();
      for (const auto& d : value) {
        if (!d.is_number_integer() || (d.is_number_unsigned() && d.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)))
          throw CaseError(form);
        c.dims->push_back(d.get<int64_t>());
      }
    } else if (key == "keepdim") {
      if (!value.is_boolean()) throw CaseError("\"keepdim\" must be true or false");
      c.keepdim = value.get<bool>();
    } else if (key == "dtype_arg") {
      const auto t = value.is_string() ? dtype_from_string(value.get<std::string>()) : std::nullopt;
      if (!t) throw CaseError("\"dtype_arg\" must be a dtype name; valid dtypes: " + dtype_names());
      c.dtype_arg = *t;
    } else if (key == "shapes") {
      if (!value.is_array()) throw CaseError("\"shapes\" must be an array of shapes");
      for (size_t i = 0; i < value.size(); ++i) {
        const std::string where = "\"shapes[" + std::to_string(i) + "]\"";
        if (value[i].is_object()) {  // a number operand: {"number": 2.5}
          c.numbers.resize(value.size());
          c.numbers[i] = number_from_json(value[i], where);
          c.shapes.emplace_back();
        } else {
          c.shapes.push_back(shape_from_json(value[i], where));
        }
      }
    } else {
      c.extra[key] = value;
    }
  }
  if (op_name.empty()) throw CaseError("missing \"op\"; valid ops: " + known_op_names());
  const OpEntry* op = find_op(op_name);
  if (!op) throw CaseError("unknown op \"" + op_name + "\"; valid ops: " + known_op_names());
  c.op = op->op;
  if (!j.contains("shapes")) throw CaseError("missing \"shapes\"");
  if (op->arity >= 0 && static_cast<int>(c.shapes.size()) != op->arity)
    throw CaseError("op \"" + op_name + "\" takes " + std::to_string(op->arity) + " shapes, got " +
                    std::to_string(c.shapes.size()));
  if (op->op == Op::graph) {
    if (!j.contains("program")) throw CaseError("op \"graph\" needs a \"program\" (docs/notes/graphs.md)");
    ProgramParse p = program_from_json(j["program"], c.shapes.size());
    if (!p.error.empty()) throw CaseError(p.error);
    c.program = std::move(p.program);
  } else if (j.contains("program")) {
    throw CaseError("\"program\" goes with op \"graph\" only");
  }
  check_numbers(c);
  if (c.out && (!op->binary || op->family != Family::elementwise))
    throw CaseError("\"out\" is for the out-of-place pointwise binary ops (add, ..., floor_divide), not \"" + op_name + "\"");
  if ((c.dims || c.keepdim || c.dtype_arg) && !op->reduction)
    throw CaseError("\"dims\", \"keepdim\" and \"dtype_arg\" are a reduction's arguments; op \"" + op_name + "\" takes none");
  if (c.dtype_arg && !op->reduction->takes_dtype)
    throw CaseError("op \"" + op_name + "\" has no dtype= argument in LibTorch 1.13 (\"dtype_arg\")");
  for (const char* key : {"dtypes", "layouts", "requires_grad"}) {
    const std::string k = key;
    const size_t n = k == "dtypes" ? c.dtypes.size() : k == "layouts" ? c.layouts.size() : c.requires_grad.size();
    if (n != 0 && n != c.shapes.size())
      throw CaseError("\"" + std::string(key) + "\" names " + std::to_string(n) + " operands, the case has " +
                      std::to_string(c.shapes.size()));
  }
  if (c.values && !c.values->data.empty()) {
    if (c.values->data.size() != c.shapes.size())
      throw CaseError("\"values.data\" gives " + std::to_string(c.values->data.size()) + " operands, the case has " +
                      std::to_string(c.shapes.size()));
    for (size_t k = 0; k < c.shapes.size(); ++k)
      if (number_of(c, k) && !c.values->data[k].empty())
        throw CaseError("\"values.data[" + std::to_string(k) + "]\" must be [] for a number operand (its value is the number)");
      else if (const ElementCount n = count_elements(c.shapes[k]);
               !number_of(c, k) && (n.overflow || static_cast<int64_t>(c.values->data[k].size()) != n.value))
        throw CaseError("\"values.data[" + std::to_string(k) + "]\" has " + std::to_string(c.values->data[k].size()) +
                        " values for shape " + format_shape(c.shapes[k]));
  }
  if (c.expect && !c.expect->grads.empty() && c.expect->grads.size() != c.shapes.size())
    throw CaseError("\"expect.grads\" names " + std::to_string(c.expect->grads.size()) + " operands, the case has " +
                    std::to_string(c.shapes.size()));
  // A gradient case written with shapes and requires_grad only (as most published tests are) runs on the values of
  // seed 0 (corpus/README.md); the case keeps saying nothing about values when written back.
  if (is_gradient_case(c) && !c.values) {
    c.values = ValueSpec{};
    c.default_values = true;
  }
  if (c.modify && (*c.modify >= static_cast<int>(c.shapes.size()) || !c.values))
    throw CaseError("\"modify\" names operand " + std::to_string(*c.modify) + ", the case has " +
                    std::to_string(c.shapes.size()) + (c.values ? "" : " (and it needs \"values\")"));
  // "overlapping" on the first operand is a window over its own storage (harness/operands.h), as fill_'s self.
  // Sizes are non-negative except in expand's target, where -1 (and, to probe errors, other negatives) may stand,
  // and in broadcast_shapes, which is given sizes, not tensors: a negative one there is the libraries' error to report.
  auto may_be_negative = [&](size_t i) { return (c.op == Op::expand && i == 1) || c.op == Op::broadcast_shapes; };
  for (size_t i = 0; i < c.shapes.size(); ++i)
    for (int64_t d : c.shapes[i])
      if (d < 0 && !may_be_negative(i))
        throw CaseError("\"shapes[" + std::to_string(i) + "]\" has a negative size " + std::to_string(d));
  // A tensor's shape (out's) and a result's (the expected one) never have a negative size.
  for (const auto& [where, shape] : {std::pair{"out.shape", c.out ? &c.out->shape : nullptr},
                                     std::pair{"expect.shape", c.expect && c.expect->shape ? &*c.expect->shape : nullptr}})
    if (shape && std::any_of(shape->begin(), shape->end(), [](int64_t d) { return d < 0; }))
      throw CaseError(std::string("\"") + where + "\" has a negative size: " + format_shape(*shape));
  return c;
}

nlohmann::json to_json(const Expectation& e) {
  nlohmann::json j = nlohmann::json::object();
  if (e.shape) j["shape"] = *e.shape;
  if (e.any_error) j["error"] = true;
  if (e.error) j["error"] = to_string(*e.error);
  if (e.message) j["message"] = *e.message;
  if (!e.grads.empty()) {
    j["grads"] = nlohmann::json::array();
    for (const auto& g : e.grads) {
      if (!g) {
        j["grads"].push_back(nullptr);
        continue;
      }
      nlohmann::json one = {{"shape", g->shape}};
      if (!g->values.empty()) one["values"] = g->values;
      j["grads"].push_back(one);
    }
  }
  return j;
}

nlohmann::json to_json(const Case& c) {
  nlohmann::json j = c.extra.is_object() ? c.extra : nlohmann::json::object();
  if (!c.id.empty()) j["id"] = c.id;
  j["op"] = to_string(c.op);
  if (!c.property.empty()) j["property"] = c.property;
  j["shapes"] = c.shapes;
  for (size_t k = 0; k < c.shapes.size(); ++k)
    if (const Number* n = number_of(c, k)) j["shapes"][k] = to_json(*n);
  if (c.expect) j["expect"] = to_json(*c.expect);
  if (!c.program.empty()) j["program"] = to_json(c.program);
  if (!c.source.empty()) j["source"] = c.source;
  if (!c.note.empty()) j["note"] = c.note;
  if (!c.tags.empty()) j["tags"] = c.tags;
  if (!c.dtypes.empty()) {  // a number's is its kind's, whatever the field holds
    j["dtypes"] = nlohmann::json::array();
    for (size_t k = 0; k < c.dtypes.size(); ++k) j["dtypes"].push_back(to_string(dtype_of(c, k)));
  }
  if (!c.layouts.empty()) {
    j["layouts"] = nlohmann::json::array();
    for (Layout l : c.layouts) j["layouts"].push_back(to_string(l));
  }
  for (const auto& [name, s] : c.scalars)
    j["scalars"][name] = s.integral ? nlohmann::json(static_cast<int64_t>(s.value))
                                    : to_json(Values(std::vector<double>{s.value}))[0];
  if (!c.requires_grad.empty()) {
    j["requires_grad"] = nlohmann::json::array();
    for (bool b : c.requires_grad) j["requires_grad"].push_back(b);
  }
  if (c.grad_seed) j["grad_seed"] = *c.grad_seed;
  if (c.dims) j["dims"] = *c.dims;
  if (c.keepdim) j["keepdim"] = true;
  if (c.dtype_arg) j["dtype_arg"] = to_string(*c.dtype_arg);
  if (c.modify) j["modify"] = *c.modify;
  if (c.out) j["out"] = {{"shape", c.out->shape}, {"dtype", to_string(c.out->dtype)}};
  if (c.values && !c.default_values) {
    j["values"] = nlohmann::json::object();
    if (c.values->data.empty()) j["values"]["seed"] = c.values->seed;
    if (c.values->special) j["values"]["special"] = true;
    if (c.values->value_class) j["values"]["class"] = to_string(*c.values->value_class);
    if (!c.values->data.empty()) {
      j["values"]["data"] = nlohmann::json::array();
      for (const Values& operand : c.values->data) j["values"]["data"].push_back(to_json(operand));
    }
  }
  return j;
}

std::string canonical_form(const Case& c) {
  nlohmann::json j = to_json(c);
  for (const char* k : {"id", "source", "note", "tags", "expect"}) j.erase(k);
  return j.dump();  // nlohmann::json objects keep keys sorted
}

uint64_t stable_hash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  return h;
}

std::string describe(const Case& c) {
  std::string out = std::string(to_string(c.op)) + "(";
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    const Number* n = number_of(c, i);
    out += (i ? ", " : "") + (n ? describe(*n) : format_shape(c.shapes[i]));
  }
  if (!c.program.empty()) out += ": " + describe_program(c.program, c.shapes.size());
  if (c.dims) out += ", dims=" + format_shape(*c.dims);
  if (c.keepdim) out += ", keepdim";
  if (c.dtype_arg) out += std::string(", dtype=") + to_string(*c.dtype_arg);
  return out + ")";
}

bool same_case(const Case& a, const Case& b) {
  const auto same_scalars = [](const std::map<std::string, Scalar>& x, const std::map<std::string, Scalar>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const auto& p, const auto& q) {
      return p.first == q.first && p.second.integral == q.second.integral &&
             std::memcmp(&p.second.value, &q.second.value, sizeof(double)) == 0;
    });
  };
  return a.op == b.op && a.shapes == b.shapes && a.numbers == b.numbers && a.dtypes == b.dtypes && a.layouts == b.layouts &&
         same_scalars(a.scalars, b.scalars) && a.values == b.values && a.default_values == b.default_values &&
         a.requires_grad == b.requires_grad && a.grad_seed == b.grad_seed && a.dims == b.dims &&
         a.keepdim == b.keepdim && a.dtype_arg == b.dtype_arg && a.modify == b.modify && a.out == b.out &&
         a.expect == b.expect && a.program == b.program && a.id == b.id &&
         a.source == b.source && a.note == b.note && a.tags == b.tags && a.extra == b.extra;
}

}  // namespace bc
