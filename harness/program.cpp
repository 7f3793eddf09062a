#include "harness/program.h"

#include <algorithm>

#include "harness/join.h"

namespace bc {

bool allowed_in_program(Op op) {
  const OpEntry& e = entry(op);
  if (e.family != Family::elementwise) return false;
  return e.binary != nullptr || e.unary != nullptr || op == Op::where;
}

std::string program_op_names() {
  std::vector<std::string> names;
  for (const OpEntry& e : op_table())
    if (allowed_in_program(e.op)) names.push_back(e.name);
  return join(names, ", ");
}

std::string program_error(const Program& p, size_t inputs) {
  if (p.empty()) return "a program needs at least one node";
  for (size_t j = 0; j < p.size(); ++j) {
    const std::string where = "program[" + std::to_string(j) + "]";
    if (!allowed_in_program(p[j].op))
      return where + ": op \"" + to_string(p[j].op) + "\" cannot stand in a program; allowed: " + program_op_names();
    const int arity = entry(p[j].op).arity;
    if (static_cast<int>(p[j].args.size()) != arity)
      return where + ": \"" + to_string(p[j].op) + "\" takes " + std::to_string(arity) + " args, got " +
             std::to_string(p[j].args.size());
    for (int a : p[j].args)
      if (a < 0 || static_cast<size_t>(a) >= inputs + j)
        return where + ": arg " + std::to_string(a) + " names neither an input (0.." + std::to_string(inputs) +
               ") nor an earlier node";
  }
  return "";
}

ProgramParse program_from_json(const nlohmann::json& j, size_t inputs) {
  const char* form = "\"program\" must be an array of nodes such as {\"op\": \"mul\", \"args\": [0, 1]}";
  ProgramParse out;
  if (!j.is_array()) return {{}, form};
  for (const auto& node : j) {
    if (!node.is_object() || !node.contains("op") || !node["op"].is_string() || !node.contains("args") ||
        !node["args"].is_array() || node.size() != 2)
      return {{}, form};
    const std::string name = node["op"].get<std::string>();
    const std::optional<Op> op = op_from_name(name);
    if (!op)
      return {{}, "program[" + std::to_string(out.program.size()) + "]: unknown op \"" + name + "\"; allowed: " +
                      program_op_names()};
    ProgramNode n{*op, {}};
    for (const auto& a : node["args"]) {
      if (!a.is_number_integer()) return {{}, form};
      n.args.push_back(a.get<int>());
    }
    out.program.push_back(n);
  }
  out.error = program_error(out.program, inputs);
  if (!out.error.empty()) out.program.clear();
  return out;
}

nlohmann::json to_json(const Program& p) {
  nlohmann::json j = nlohmann::json::array();
  for (const ProgramNode& n : p) j.push_back({{"op", to_string(n.op)}, {"args", n.args}});
  return j;
}

std::string describe_program(const Program& p, size_t inputs) {
  const auto name = [&](int k) {
    return (static_cast<size_t>(k) < inputs ? "x" : "t") + std::to_string(k);
  };
  std::vector<std::string> lines;
  for (size_t j = 0; j < p.size(); ++j) {
    std::vector<std::string> args;
    for (int a : p[j].args) args.push_back(name(a));
    lines.push_back(name(static_cast<int>(inputs + j)) + " = " + to_string(p[j].op) + "(" + join(args, ", ") + ")");
  }
  return join(lines, "; ");
}

bool value_is_bool(const Program& p, const std::vector<bool>& bool_inputs, int k) {
  const size_t n = bool_inputs.size();
  if (static_cast<size_t>(k) < n) return bool_inputs[static_cast<size_t>(k)];
  const ProgramNode& node = p[static_cast<size_t>(k) - n];
  if (is_comparison(node.op)) return true;
  if (node.op == Op::where)
    return value_is_bool(p, bool_inputs, node.args[1]) && value_is_bool(p, bool_inputs, node.args[2]);
  return false;
}

std::optional<Program> drop_node(const Program& p, size_t j, const std::vector<bool>& bool_inputs) {
  if (p.size() < 2 || j >= p.size()) return std::nullopt;
  const int n = static_cast<int>(bool_inputs.size());
  const int dropped = n + static_cast<int>(j);
  const int bypass = p[j].op == Op::where ? p[j].args[1] : p[j].args[0];
  Program out;
  for (size_t k = 0; k < p.size(); ++k) {
    if (k == j) continue;
    ProgramNode node = p[k];
    for (int& a : node.args) a = a == dropped ? bypass : a > dropped ? a - 1 : a;
    out.push_back(node);
  }
  for (const ProgramNode& node : out)
    if (node.op == Op::where && !value_is_bool(out, bool_inputs, node.args[0])) return std::nullopt;
  return out;
}

bool uses_input(const Program& p, size_t k) {
  for (const ProgramNode& node : p)
    if (std::find(node.args.begin(), node.args.end(), static_cast<int>(k)) != node.args.end()) return true;
  return false;
}

Program drop_input(const Program& p, size_t k) {
  Program out = p;
  for (ProgramNode& node : out)
    for (int& a : node.args)
      if (a > static_cast<int>(k)) --a;
  return out;
}

std::vector<std::string> program_classes(const Program& p, size_t inputs) {
  std::vector<int> uses(inputs + p.size(), 0);
  bool where = false, extremum = false;
  for (const ProgramNode& node : p) {
    for (int a : node.args) ++uses[static_cast<size_t>(a)];
    where = where || node.op == Op::where;
    extremum = extremum || node.op == Op::maximum || node.op == Op::minimum;
  }
  const bool diamond = std::any_of(uses.begin() + static_cast<std::ptrdiff_t>(inputs), uses.end(),
                                   [](int u) { return u >= 2; });
  std::vector<std::string> out = {diamond ? "graph diamond" : "graph chain",
                                  "graph nodes " + std::to_string(p.size())};
  if (where) out.push_back("graph where");
  if (extremum) out.push_back("graph maximum/minimum");
  return out;
}

}  // namespace bc
