// `broadcheck list oracles`: an adapter's line shows what its handshake declared, in full (protocol version,
// gradients, out, batch, every op, dtype and layout), in text within 80 columns and in JSON.
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

using nlohmann::json;

namespace {

const std::string kShapes = "shapes=/usr/bin/python3 " + bc::test_source_dir() + "/tests/oracles/adapters/shape_adapter.py good";
const std::string kServed = "served=" + bc::test_binary_dir() + "/engine_adapter";

// The shape adapter's handshake (tests/oracles/adapters/shape_adapter.py): protocol 1, the op add, float32,
// contiguous, no gradients, batches, no out.
TEST(ListCommand, AnAdaptersDeclarationsAreListedInFull) {
  const CliRun text = broadcheck("list oracles --no-config --oracle '" + kShapes + "'");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("shape_adapter.py good\n"
                             "  declares protocol 1; gradients no; out no; batch yes\n"
                             "  ops (1): add\n"
                             "  dtypes: float32\n"
                             "  layouts: contiguous\n"),
            std::string::npos)
      << text.output;
  const CliRun j = broadcheck("list oracles --json --no-config --oracle '" + kShapes + "'");
  ASSERT_EQ(j.exit_code, 0) << j.output;
  bool seen = false;
  for (const json& o : json::parse(j.output)) {
    if (o["name"] != "shapes") continue;
    seen = true;
    EXPECT_EQ(o["declares"], json::parse(R"({"protocol": 1, "ops": ["add"], "dtypes": ["float32"],
        "layouts": ["contiguous"], "gradients": false, "out": false, "batch": true, "ignored": []})"));
  }
  EXPECT_TRUE(seen) << j.output;
}

// The engine adapter speaks protocol 2 and declares every op of the table: each is listed, the declarations on lines
// that fit a terminal of 80 columns.
TEST(ListCommand, AProtocol2AdapterSaysSoAndItsOpsFitTheTerminal) {
  const CliRun text = broadcheck("list oracles --no-config --oracle '" + kServed + "'");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("  declares protocol 2; gradients yes (upstream sent); out yes; batch yes\n"),
            std::string::npos)
      << text.output;
  const json ops = json::parse(broadcheck("list ops --json --no-config").output);
  const size_t from = text.output.find("  ops (" + std::to_string(ops.size()) + "):");
  ASSERT_NE(from, std::string::npos) << text.output;
  std::istringstream words(text.output.substr(from, text.output.find("  dtypes:", from) - from));
  std::set<std::string> listed;
  for (std::string w; words >> w;) listed.insert(w);
  for (const json& op : ops) EXPECT_EQ(listed.count(op["op"].get<std::string>()), 1u) << op["op"];
  EXPECT_EQ(listed.size(), ops.size() + 2) << "each op once, after \"ops (N):\"";
  // The declarations' lines (not the header line, whose title and version are the adapter's, nor the command).
  std::istringstream lines(text.output.substr(text.output.find("  declares protocol 2")));
  for (std::string line; std::getline(lines, line) && line.rfind("  ", 0) == 0;) EXPECT_LE(line.size(), 80u) << line;
}

}  // namespace
