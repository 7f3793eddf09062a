// A small program of pointwise ops over a case's inputs (the op "graph", docs/notes/graphs.md): a list of nodes,
// each an op of the table and its arguments, where argument k < n names input k and k >= n names node k - n, always
// an earlier one; the last node is the result. Parsing refuses anything else with a reason (errors as data).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/op_table.h"

namespace bc {

struct ProgramNode {
  Op op;
  std::vector<int> args;
  friend bool operator==(const ProgramNode& a, const ProgramNode& b) { return a.op == b.op && a.args == b.args; }
};
using Program = std::vector<ProgramNode>;

// The ops a program may use: the out-of-place pointwise binary and unary ops of the table, and where.
bool allowed_in_program(Op op);
std::string program_op_names();

// A program read from its JSON form over `inputs` inputs, or the reason it is refused (which node, which field).
struct ProgramParse {
  Program program;
  std::string error;  // empty: parsed
};
ProgramParse program_from_json(const nlohmann::json& j, size_t inputs);
// The reason `p` is not a valid program over `inputs` inputs; empty when it is.
std::string program_error(const Program& p, size_t inputs);
nlohmann::json to_json(const Program& p);

// "t2 = mul(x0, x1); t3 = where(t2, x0, t2)": inputs are x0.., node j is t(inputs + j).
std::string describe_program(const Program& p, size_t inputs);

// Whether value k (an input or a node) is bool: a bool input (`bool_inputs[k]`), a comparison, or a where whose
// branches are both bool.
bool value_is_bool(const Program& p, const std::vector<bool>& bool_inputs, int k);

// The program without node j: every use of node j reads its bypass instead (its first argument, or a where's
// first branch), later nodes move down by one. nullopt when that leaves a program of no nodes or a where whose
// condition is not bool (dropping must keep a program valid, never turn it into another case's error).
std::optional<Program> drop_node(const Program& p, size_t j, const std::vector<bool>& bool_inputs);

// The program with input k removed (it must be unused): later inputs and every node index move down by one.
Program drop_input(const Program& p, size_t k);
bool uses_input(const Program& p, size_t k);

// Coverage classes of a program's structure: "graph diamond" (a node's result used twice) or "graph chain", "graph
// where", "graph maximum/minimum", "graph nodes N".
std::vector<std::string> program_classes(const Program& p, size_t inputs);

}  // namespace bc
