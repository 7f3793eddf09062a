// The adapters' own tables (oracles/numpy/adapter.py, oracles/onnxruntime/onnx_ops.mjs, oracles/tfjs/ops.mjs): each
// binds every op of the op table (its declared OPS) or refuses it with a reason (its UNSUPPORTED), read from the
// adapter's module itself.
#include <array>
#include <cstdio>
#include <memory>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/op_table.h"
#include "test_paths.h"

namespace bc {
namespace {

// The standard output of a shell command run in the clone's root.
std::string output_of(const std::string& command) {
  const std::string in_root = "cd '" + test_source_dir() + "' && " + command;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(in_root.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> chunk{};
  while (pipe && fgets(chunk.data(), chunk.size(), pipe.get())) out += chunk.data();
  return out;
}

// What is wrong with an adapter's table {"ops": [...], "unsupported": {op: reason}}: an op of the op table in
// neither or both, a refusal without a reason, a name the op table does not have.
std::vector<std::string> table_problems(const nlohmann::json& table) {
  std::vector<std::string> problems;
  const std::set<std::string> ops = table.at("ops").get<std::set<std::string>>();
  const nlohmann::json& refused = table.at("unsupported");
  for (const OpEntry& e : op_table()) {
    const bool bound = ops.count(e.name) > 0, refuses = refused.contains(e.name);
    if (!bound && !refuses) problems.push_back(std::string("no cell for ") + e.name);
    if (bound && refuses) problems.push_back(std::string("bound and refused: ") + e.name);
    if (refuses && refused.at(e.name).get<std::string>().empty()) problems.push_back(std::string("no reason: ") + e.name);
  }
  for (const std::string& op : ops)
    if (!op_from_name(op)) problems.push_back("not an op: " + op);
  for (const auto& [op, reason] : refused.items())
    if (!op_from_name(op)) problems.push_back("not an op: " + op);
  return problems;
}

std::string joined(const std::vector<std::string>& problems) {
  std::string text;
  for (const std::string& p : problems) text += p + "\n";
  return text;
}

nlohmann::json node_table(const std::string& module) {
  return nlohmann::json::parse(output_of(
      "node --input-type=module -e \"import {OPS, UNSUPPORTED} from './" + module +
      "'; console.log(JSON.stringify({ops: OPS, unsupported: UNSUPPORTED}))\""));
}

TEST(AdapterTables, NumPyBindsOrRefusesEveryOp) {
  const nlohmann::json table = nlohmann::json::parse(output_of(
      "/usr/bin/python3 -c 'import json, sys; sys.path.insert(0, \"oracles/numpy\"); import adapter; "
      "print(json.dumps({\"ops\": adapter.OPS, \"unsupported\": adapter.UNSUPPORTED}))'"));
  EXPECT_TRUE(table_problems(table).empty()) << joined(table_problems(table));
}

TEST(AdapterTables, OnnxRuntimeBindsOrRefusesEveryOp) {
  const nlohmann::json table = node_table("oracles/onnxruntime/onnx_ops.mjs");
  EXPECT_TRUE(table_problems(table).empty()) << joined(table_problems(table));
}

TEST(AdapterTables, TfjsBindsOrRefusesEveryOp) {
  const nlohmann::json table = node_table("oracles/tfjs/ops.mjs");
  EXPECT_TRUE(table_problems(table).empty()) << joined(table_problems(table));
}

// The check itself: an op in neither list, in both, refused without a reason, or unknown, is named.
TEST(AdapterTables, NamesEveryKindOfProblem) {
  nlohmann::json table = {{"ops", nlohmann::json::array()}, {"unsupported", nlohmann::json::object()}};
  for (const OpEntry& e : op_table())
    if (e.op != Op::hypot) table["ops"].push_back(e.name);
  table["ops"].push_back("nonesuch");
  table["unsupported"]["add"] = "twice";
  table["unsupported"]["lerp"] = "";
  EXPECT_EQ(table_problems(table), (std::vector<std::string>{"bound and refused: add", "no cell for hypot",
                                                             "bound and refused: lerp", "no reason: lerp",
                                                             "not an op: nonesuch"}));
}

}  // namespace
}  // namespace bc
