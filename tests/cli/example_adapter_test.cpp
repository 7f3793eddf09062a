// The README's example adapter (docs/examples/mini_adapter.py) is a working one: a run of its two ops with it voting
// passes with it answering hundreds of cases, and the same adapter with mul computing a difference is named in a
// new finding, shrunk, so the example shows a maintainer both sides.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

using nlohmann::json;

namespace {

const std::string kExample = bc::test_source_dir() + "/docs/examples/mini_adapter.py";

// The example with mul computing a difference, written to the scratch folder under `name`.
fs::path broken_example(const std::string& name) {
  std::string text = slurp(kExample);
  const std::string right = "\"mul\": np.multiply";
  const size_t at = text.find(right);
  EXPECT_NE(at, std::string::npos) << "the example no longer maps mul to np.multiply";
  if (at != std::string::npos) text.replace(at, right.size(), "\"mul\": np.subtract");
  const fs::path broken = scratch(name);
  std::ofstream(broken) << text;
  return broken;
}

CliRun run_with(const std::string& adapter, const fs::path& out) {
  return broadcheck("run --seed 1 --cases 200 --no-replay --op add --op mul --no-config --oracle 'mini=/usr/bin/python3 " +
                    adapter + "' -q --results all --out " + out.string());
}

}  // namespace

TEST(ExampleAdapter, PassesAndAnswersCases) {
  const fs::path out = scratch("example-adapter");
  const CliRun r = run_with(kExample, out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  long answered = 0;
  for (const std::string& line : lines(out / "results.jsonl")) {
    const json j = json::parse(line);
    if (j.contains("outcomes") && j["outcomes"].contains("mini") && j["outcomes"]["mini"]["status"] != "unsupported")
      ++answered;
  }
  EXPECT_GT(answered, 150) << "the example answered too few cases to show anything";
}

TEST(ExampleAdapter, ABugInItIsNamed) {
  const fs::path broken = broken_example("broken_mini_adapter.py");
  const fs::path out = scratch("example-adapter-broken");
  const CliRun r = run_with(broken.string(), out);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  long named = 0;
  for (const json& f : summary["findings"])
    if (f["verdict"] == "discrepancy" && f["minimal"]["odd_ones"] == json::array({"mini"})) {
      ++named;
      EXPECT_EQ(f["minimal"]["case"]["op"], "mul") << f.dump();
    }
  EXPECT_GT(named, 0) << r.output;
}

// A finding first met in a corpus case (here a --case, replayed as corpus lines are) is shrunk too: fewer dims, smaller
// sizes, while it fails the same way; the case as given stays the finding's original.
TEST(ExampleAdapter, AFindingMetInACorpusCaseIsShrunk) {
  const fs::path broken = broken_example("broken_mini_adapter_corpus.py");
  const fs::path out = scratch("example-adapter-corpus-shrink");
  const json given = json::parse(R"({"op": "mul", "shapes": [[3, 4, 5], [4, 1]], "values": {"seed": 3}})");
  const CliRun r = broadcheck("replay --no-config --oracle 'mini=/usr/bin/python3 " + broken.string() +
                              "' -q --out " + out.string() + " --case '" + given.dump() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  ASSERT_EQ(summary["findings"].size(), 1u) << summary.dump();
  const json& f = summary["findings"][0];
  EXPECT_EQ(f["original"]["shapes"], given["shapes"]) << f.dump();
  EXPECT_TRUE(f.value("shrunk", false)) << f.dump();
  long elements = 0;
  for (const json& shape : f["minimal"]["case"]["shapes"]) {
    long n = 1;
    for (const json& d : shape) n *= d.get<long>();
    elements += n;
  }
  EXPECT_LE(elements, 2) << "a difference in every element needs one element per operand: " << f["minimal"].dump();
  EXPECT_NE(f.value("replay_command", "").find("\"shapes\""), std::string::npos) << f.dump();
}
