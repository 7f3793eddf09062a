// External implementations through `broadcheck run`: the engine served over the protocol agrees with the engine in
// process on every case of a default run it is sent; a test adapter with a planted bug is found, attributed to it
// and shrunk; NumPy takes part through the committed config; an adapter that does not start is a clear input error.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

using nlohmann::json;

namespace {

const std::string kShapeAdapter = "/usr/bin/python3 " BC_SOURCE_DIR "/tests/oracles/adapters/shape_adapter.py";

}  // namespace

TEST(ProtocolCli, EngineOverTheProtocolAgreesWithTheEngineOnADefaultRun) {
  const fs::path out = scratch("engine-over-protocol");
  const CliRun r = broadcheck("run --seed 1 --cases 2000 --no-config --oracle 'served=" BC_BINARY_DIR
                              "/engine_adapter' -q --results all --out " + out.string());
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.output;
  long sent = 0, unsupported = 0;
  for (const std::string& line : case_lines(out / "results.jsonl")) {
    const json j = json::parse(line);
    const json& o = j["outcomes"];
    if (!o.contains("served")) continue;
    if (o["served"]["status"] == "unsupported") {
      EXPECT_EQ(o["served"]["detail"], "an upstream gradient other than ones (grad_seed) is not in protocol 1");
      ++unsupported;
      continue;
    }
    ++sent;
    ASSERT_EQ(o["served"], o["engine"]) << j["case"].dump();
  }
  std::cout << sent << " cases through the protocol, " << unsupported << " not sent (grad_seed)\n";
  EXPECT_GT(sent, 20000);
}

TEST(ProtocolCli, APlantedBugIsFoundAttributedAndShrunk) {
  const fs::path out = scratch("planted");
  const CliRun r = broadcheck("run --seed 1 --cases 400 --no-config --no-replay --property elementwise_agree --oracle "
                              "'planted=" + kShapeAdapter + " planted' -q --out " + out.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  int found = 0;
  for (const json& f : summary["findings"]) {
    if (f["verdict"] == "known" || f["minimal"]["odd_ones"] != json::array({"planted"})) continue;
    ++found;
    const json& c = f["minimal"]["case"];
    EXPECT_LE(c["shapes"].size(), 2u) << c.dump();
    bool size_zero = false;
    for (const json& s : c["shapes"]) {
      EXPECT_LE(s.size(), 2u) << c.dump();
      for (const json& d : s) size_zero = size_zero || d == 0;
    }
    EXPECT_TRUE(size_zero) << "a size-0 dim is the planted bug: " << c.dump();
    EXPECT_NE(f["regression_draft"].get<std::string>().find("shape_adapter.py planted"), std::string::npos)
        << "the reproduction pipes the request into the adapter's command";
  }
  EXPECT_GE(found, 1) << r.output;
}

TEST(ProtocolCli, NumPyVotesInTheDefaultRunThroughTheCommittedConfig) {
  const CliRun list = broadcheck("list oracles");
  EXPECT_NE(list.output.find("numpy      voter      NumPy"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("oracles/numpy/adapter.py\n  declares "), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("gradients no"), std::string::npos) << list.output;
  const fs::path out = scratch("numpy");
  const CliRun r = broadcheck("replay " BC_SOURCE_DIR "/corpus/seeds.jsonl -q --results all --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  long answered = 0;
  for (const std::string& line : case_lines(out / "results.jsonl"))
    answered += json::parse(line)["outcomes"]["numpy"]["status"] != "unsupported";
  EXPECT_GT(answered, 10);
}

TEST(ProtocolCli, AnAdapterThatDoesNotStartIsAnInputError) {
  const CliRun bad = broadcheck("run --cases 1 --no-config --oracle 'bad=" + kShapeAdapter + " badhello' -q --out " +
                                scratch("bad").string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("the bad adapter ("), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("the handshake speaks protocol 99"), std::string::npos) << bad.output;
  EXPECT_EQ(broadcheck("run --cases 1 --no-config --oracle noequals -q").exit_code, 2);
  EXPECT_EQ(broadcheck("run --cases 1 --config /nonexistent.json -q").exit_code, 2);
}
