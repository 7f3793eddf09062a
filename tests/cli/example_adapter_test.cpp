// The README's example adapter (docs/examples/mini_adapter.py) is a working one: a run of its two ops with it voting
// passes with it answering hundreds of cases, and the same adapter with mul computing a difference is named in a
// new finding, shrunk, so the example shows a maintainer both sides.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

using nlohmann::json;

namespace {

const std::string kExample = bc::test_source_dir() + "/docs/examples/mini_adapter.py";

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
  std::string text = slurp(kExample);
  const std::string right = "\"mul\": np.multiply";
  const size_t at = text.find(right);
  ASSERT_NE(at, std::string::npos) << "the example no longer maps mul to np.multiply";
  text.replace(at, right.size(), "\"mul\": np.subtract");
  const fs::path broken = scratch("broken_mini_adapter.py");
  std::ofstream(broken) << text;
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
