// External implementations through `broadcheck run`: the engine served over the protocol agrees with the engine in
// process on every case of a default run, all sent in protocol 2 (in protocol 1, all but the grad_seed ones); a test adapter with a planted bug is found, attributed to it
// and shrunk; NumPy takes part through the committed config; an adapter that does not start is a clear input error;
// an adapter that crashes only once, or answers one case differently in different runs, is reported as flaky or
// nondeterministic (run again in fresh processes) and does not fail the run; the adapters start together.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

using nlohmann::json;

namespace {

const std::string kShapeAdapter =
    "/usr/bin/python3 " + bc::test_source_dir() + "/tests/oracles/adapters/shape_adapter.py";

}  // namespace

namespace {

// The engine adapter's outcomes in a run, each checked equal to the in-process engine's (a case it was not sent is
// unsupported, with `not_sent` as its detail), and its rows on the scoreboard (summary.json, summary.md,
// report.html) counting the same: how many cases it was sent, how many of them were gradient cases with grad_seed or
// graphs' backward, and how many it was not sent.
struct Served {
  long sent = 0, seeded = 0, graph_backward = 0, not_sent = 0;
};

Served served_run(const std::string& arguments, const std::string& adapter, const std::string& not_sent) {
  const fs::path out = scratch("engine-over-protocol");
  const CliRun r = broadcheck("run " + arguments + " --no-config --oracle 'served=" + bc::test_binary_dir() +
                              "/engine_adapter" + adapter + "' -q --results all --out " + out.string());
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.output;
  Served s;
  for (const std::string& line : case_lines(out / "results.jsonl")) {
    const json j = json::parse(line);
    const json& o = j["outcomes"];
    if (!o.contains("served")) continue;
    if (o["served"]["status"] == "unsupported") {
      EXPECT_EQ(o["served"]["detail"], not_sent) << j["case"].dump();
      ++s.not_sent;
      continue;
    }
    ++s.sent;
    const bool gradient = j["case"].contains("requires_grad");
    s.seeded += gradient && j["case"].contains("grad_seed");
    s.graph_backward += gradient && j["case"].contains("program");  // a graph case carries its program
    EXPECT_EQ(o["served"], o["engine"]) << j["case"].dump();
  }
  std::cout << s.sent << " cases through the protocol (" << s.seeded << " with grad_seed, " << s.graph_backward
            << " graphs' backward), " << s.not_sent << " not sent\n";
  // The adapter has its rows on the scoreboard: in summary.json per op family, adding up to what it was sent.
  const json board = json::parse(slurp(out / "summary.json"))["scoreboard"]["served"];
  long run = 0, unsupported = 0;
  for (const auto& [family, score] : board.items()) {
    run += score["run"].get<long>();
    unsupported += score["unsupported"].get<long>();
  }
  EXPECT_EQ(run, s.sent) << board.dump();
  EXPECT_EQ(unsupported, s.not_sent) << board.dump();
  EXPECT_TRUE(board.contains("autograd") && board.contains("elementwise")) << board.dump();
  EXPECT_NE(slurp(out / "summary.md").find("| `served` | " + std::to_string(run) + " | "), std::string::npos);
  EXPECT_NE(slurp(out / "report.html").find("<tr><th>broadcheck engine (protocol) (served)</th><td>autograd</td>"),
            std::string::npos);
  return s;
}

const char kNotInProtocol1[] = "an upstream gradient other than ones (grad_seed) is not in protocol 1";

}  // namespace

// Protocol 2: every case is sent, grad_seed and graphs' backward included, each with its upstream gradient, which
// the adapter runs backward from; its outcomes are the in-process engine's exactly.
TEST(ProtocolCli, EngineOverTheProtocolAgreesWithTheEngineOnADefaultRun) {
  const Served s = served_run("--seed 1 --cases 2000", "", kNotInProtocol1);
  EXPECT_GT(s.sent, 20000);
  EXPECT_EQ(s.not_sent, 0);
  EXPECT_GT(s.seeded, 1000);
  EXPECT_GT(s.graph_backward, 100);
}

// Protocol 1: the same adapter answering the handshake with protocol 1 gets no upstream (it answers an error if it
// does) and no grad_seed case, and agrees on the rest.
TEST(ProtocolCli, AProtocol1AdapterGetsWhatProtocol1Sends) {
  const Served s = served_run("--seed 1 --cases 300 --property graphs_agree", " 1", kNotInProtocol1);
  EXPECT_GT(s.sent, 100);
  EXPECT_GT(s.not_sent, 30);
  EXPECT_EQ(s.seeded, 0);
  EXPECT_GT(s.graph_backward, 30);
}

TEST(ProtocolCli, APlantedBugIsFoundAttributedAndShrunk) {
  const fs::path out = scratch("planted");
  const CliRun r = broadcheck("run --seed 1 --cases 400 --no-config --no-replay --property elementwise_agree --oracle "
                              "'planted=" + kShapeAdapter + " planted' -q --out " + out.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  int found = 0;
  for (const json& f : findings_blaming(summary, "planted")) {
    ++found;
    const json& c = f["minimal"]["case"];
    EXPECT_LE(c["shapes"].size(), 2u) << c.dump();
    bool size_zero = false;
    for (const json& s : c["shapes"]) {
      EXPECT_LE(s.size(), 2u) << c.dump();
      for (const json& d : s) size_zero = size_zero || d == 0;
    }
    EXPECT_TRUE(size_zero) << "a size-0 dim is the planted bug: " << c.dump();
    EXPECT_NE(f["adapter_commands"].value("planted", "").find("shape_adapter.py planted"), std::string::npos)
        << "the reproduction pipes the request into the adapter's command: " << f.dump();
  }
  EXPECT_GE(found, 1) << r.output;
}

// The adapters start together, at registration and in the run: three slow-starting adapters (1.5 s from start to
// handshake) all start before any is ready, at registration and again in the one job's oracles, and the run exits 0.
TEST(ProtocolCli, AdaptersStartTogether) {
  const fs::path out = scratch("start-together");
  const fs::path log = scratch("start-together.log");
  fs::remove(log);
  std::string oracles;
  for (const char* name : {"a", "b", "c"})
    oracles += std::string(" --oracle '") + name + "=" + kShapeAdapter + " slowstart " + log.string() + "'";
  const CliRun r = broadcheck("run --cases 1 --jobs 1 --no-replay --no-config" + oracles + " -q --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> lines, expected;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (int starts = 0; starts < 2; ++starts)
    for (const char* word : {"start", "start", "start", "ready", "ready", "ready"}) expected.push_back(word);
  EXPECT_EQ(lines, expected);
}

TEST(ProtocolCli, NumPyVotesInTheDefaultRunThroughTheCommittedConfig) {
  const CliRun list = broadcheck("list oracles");
  EXPECT_NE(list.output.find("numpy      voter      NumPy"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("oracles/numpy/adapter.py\n  declares "), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("gradients no"), std::string::npos) << list.output;
  const fs::path out = scratch("numpy");
  const CliRun r =
      broadcheck("replay " + bc::test_source_dir() + "/corpus/seeds.jsonl -q --results all --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  long answered = 0;
  for (const std::string& line : case_lines(out / "results.jsonl"))
    answered += json::parse(line)["outcomes"]["numpy"]["status"] != "unsupported";
  EXPECT_GT(answered, 10);
}

TEST(ProtocolCli, AnAdapterThatDoesNotStartIsAnInputError) {
  const fs::path out = scratch("bad");
  const CliRun bad = broadcheck("run --cases 1 --no-config --oracle 'bad=" + kShapeAdapter + " badhello' -q --out " +
                                out.string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("the bad adapter ("), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("the handshake speaks protocol 99"), std::string::npos) << bad.output;
  // The run's outputs say so too, as for any input error, and nothing ran.
  const json summary = json::parse(slurp(out / "summary.json"));
  ASSERT_FALSE(summary["input_errors"].empty());
  EXPECT_NE(summary["input_errors"][0].get<std::string>().find("the handshake speaks protocol 99"), std::string::npos)
      << summary["input_errors"];
  EXPECT_EQ(summary["exit_code"], 2);
  EXPECT_NE(slurp(out / "junit.xml").find("the handshake speaks protocol 99"), std::string::npos);
  EXPECT_TRUE(case_lines(out / "results.jsonl").empty());
  EXPECT_EQ(broadcheck("run --cases 1 --no-config --oracle noequals -q --out " + out.string()).exit_code, 2);
  EXPECT_EQ(broadcheck("run --cases 1 --config /nonexistent.json -q --out " + out.string()).exit_code, 2);
}

// A config file's mistakes name the file and the field; a name given twice on the command line is refused.
TEST(ProtocolCli, ConfigAndOracleMistakesNameTheirSource) {
  const fs::path out = scratch("config-mistakes");
  auto with_config = [&](const std::string& name, const std::string& text) {
    const fs::path config = scratch(name);
    std::ofstream(config) << text;
    return std::make_pair(config.string(), broadcheck("run --cases 1 -q --config " + config.string() + " --out " + out.string()));
  };
  const auto [optional, optional_run] =
      with_config("optional.json", R"({"oracles": {"served": {"command": "x", "optional": "yes"}}})");
  EXPECT_EQ(optional_run.exit_code, 2) << optional_run.output;
  EXPECT_NE(optional_run.output.find(optional + ": \"oracles.served.optional\" must be true or false"), std::string::npos)
      << optional_run.output;
  const auto [builtin, builtin_run] = with_config("builtin.json", R"({"oracles": {"torch": "python3 x.py"}})");
  EXPECT_EQ(builtin_run.exit_code, 2) << builtin_run.output;
  EXPECT_NE(builtin_run.output.find(builtin + ": \"oracles.torch\": the name of a built-in implementation"),
            std::string::npos) << builtin_run.output;
  EXPECT_EQ(builtin_run.output.find("--oracle torch"), std::string::npos) << builtin_run.output;
  const auto [deep, deep_run] = with_config("deep.json", R"({"oracles": )" + std::string(100000, '[') + "}");
  EXPECT_EQ(deep_run.exit_code, 2) << deep_run.output;
  EXPECT_NE(deep_run.output.find(deep + ": arrays and objects nest deeper than the limit of 64"), std::string::npos)
      << deep_run.output;
  const std::string adapter = "served=" + bc::test_binary_dir() + "/engine_adapter";
  const CliRun twice = broadcheck("run --cases 1 -q --no-config --oracle '" + adapter + "' --oracle '" + adapter +
                                  "' --out " + out.string());
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("--oracle served is given twice"), std::string::npos) << twice.output;
}

namespace {

// A run of the shape adapter in `mode` (with its state file) as a fourth voter: the summary, the results' case
// lines, junit.xml and summary.md, after checking that the run passed.
struct UnstableRun {
  json summary;
  std::vector<std::string> results;
  std::string junit, markdown, output;
};

UnstableRun run_unstable(const std::string& mode) {
  const fs::path out = scratch(mode), state = scratch(mode + "-state");
  fs::remove(state);
  // One job: the state file counts the turns of every adapter process, and two shards would take turns alternately.
  const CliRun r = broadcheck("run --seed 1 --cases 300 --jobs 1 --no-config --no-replay --property elementwise_agree --oracle '" +
                              mode + "=" + kShapeAdapter + " " + mode + " " + state.string() + "' --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << "never a failure by itself\n" << r.output;
  return {json::parse(slurp(out / "summary.json")), case_lines(out / "results.jsonl"), slurp(out / "junit.xml"),
          slurp(out / "summary.md"), r.output};
}

// The findings that odd out the adapter; each must be classified `kind`, with the counts.
int unstable_findings(const UnstableRun& run, const std::string& mode, const std::string& kind,
                      const std::string& detail) {
  int found = 0;
  for (const json& f : run.summary["findings"]) {
    if (f["minimal"]["odd_ones"] != json::array({mode})) continue;
    ++found;
    EXPECT_EQ(f["verdict"], "discrepancy");
    EXPECT_EQ(f["reproduction"]["kind"], kind) << f.dump();
    EXPECT_EQ(f["reproduction"]["runs"], 4);
    EXPECT_EQ(f["reproduction"]["details"], json::array({detail})) << f.dump();
    EXPECT_EQ(f["minimal"]["stability"], kind);
  }
  EXPECT_GT(run.summary["verdicts"].value(kind, 0), 0) << run.summary["verdicts"].dump();
  EXPECT_EQ(run.summary["verdicts"].value("discrepancy", 0), 0) << run.summary["verdicts"].dump();
  long lines = 0;
  for (const std::string& line : run.results) lines += json::parse(line).value("stability", "") == kind;
  EXPECT_GT(lines, 0);
  EXPECT_EQ(run.junit.find("<failure"), std::string::npos);
  EXPECT_NE(run.junit.find(detail), std::string::npos);
  EXPECT_NE(run.markdown.find("Flaky or nondeterministic"), std::string::npos) << run.markdown;
  EXPECT_NE(run.output.find(kind == "flaky" ? "FLAKY " : "NONDETERMINISTIC "), std::string::npos) << run.output;
  return found;
}

}  // namespace

TEST(ProtocolCli, ACrashThatDoesNotRecurIsFlakyNotNew) {
  const UnstableRun run = run_unstable("once");
  EXPECT_EQ(unstable_findings(run, "once", "flaky", "once crashed in 1 of 4 runs"), 1) << run.output;
  // The adapter died with a window of cases queued; none crashed alone, so the oldest kept the crash, saying so.
  long kept = 0;
  for (const std::string& line : run.results) {
    const json once = json::parse(line)["outcomes"].value("once", json::object());
    kept += once.value("status", "") == "crash" &&
            once.value("detail", "").find("; not reproduced when the ") != std::string::npos;
  }
  EXPECT_EQ(kept, 1) << run.output;
}

TEST(ProtocolCli, AnswersThatChangeBetweenRunsAreNondeterministicNotNew) {
  const UnstableRun run = run_unstable("flip");
  EXPECT_GE(unstable_findings(run, "flip", "nondeterministic", "flip gave 2 different results in 4 runs"), 1)
      << run.output;
}
