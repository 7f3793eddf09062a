// A finding's printed commands, run by /bin/sh from another folder, give the verdict of the run that found it:
// a built-in implementation's finding of a --no-known --no-config run, an equivalence finding (judged by its
// property's own check), and a planted-bug adapter's finding of a run that named the adapter by a path relative to
// the folder it ran in. The replay and reproduce commands are taken
// from summary.json and from summary.md; each writes into a folder of its own (never ./broadcheck-out), and the
// adapter's own command, run alone, gives the adapter's answer of the run.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "harness/shell_quote.h"

using nlohmann::json;

namespace {

// The scratch folder `name`, empty.
fs::path fresh_folder(const std::string& name) {
  const fs::path dir = scratch(name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// `command` run by /bin/sh in `dir`, without GITHUB_STEP_SUMMARY.
CliRun shell_in(const fs::path& dir, const std::string& command) {
  const fs::path log = scratch("shell-log.txt");
  const std::string cmd = "cd " + bc::shell_quote(dir.string()) + " && env -u GITHUB_STEP_SUMMARY /bin/sh -c " +
                          bc::shell_quote(command) + " > " + bc::shell_quote(log.string()) + " 2>&1";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(log)};
}

// The commands of summary.md's new findings listed as "   - LABEL: `COMMAND`".
std::vector<std::string> markdown_commands(const std::string& md, const std::string& label) {
  std::vector<std::string> out;
  const std::string start = "   - " + label + ": `";
  for (size_t at = md.find(start); at != std::string::npos; at = md.find(start, at + 1)) {
    const size_t from = at + start.size(), end = md.find("`\n", from);
    out.push_back(md.substr(from, end - from));
  }
  return out;
}

// Runs `command` in a fresh folder and checks that it gives `finding`'s verdict: exit 1, one new finding with
// the same minimal case, verdict and odd ones out, written into the folder the command names, not ./broadcheck-out.
void expect_same_verdict(const json& finding, const std::string& command, const std::string& where) {
  SCOPED_TRACE(where + ": " + command);
  const fs::path dir = fresh_folder("elsewhere");
  const CliRun r = shell_in(dir, command);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_FALSE(fs::exists(dir / "broadcheck-out")) << "a replay never writes into ./broadcheck-out";
  std::vector<fs::path> outs;
  for (const auto& entry : fs::directory_iterator(dir)) outs.push_back(entry.path());
  ASSERT_EQ(outs.size(), 1u) << r.output;
  EXPECT_EQ(outs[0].filename().string().rfind("broadcheck-finding-", 0), 0u) << outs[0];
  const json replayed = json::parse(slurp(outs[0] / "summary.json"));
  ASSERT_EQ(replayed["findings"].size(), 1u) << r.output;
  const json& again = replayed["findings"][0]["minimal"];
  EXPECT_EQ(again["case"]["shapes"], finding["minimal"]["case"]["shapes"]);
  EXPECT_EQ(again["verdict"], finding["minimal"]["verdict"]);
  EXPECT_EQ(again["odd_ones"], finding["minimal"]["odd_ones"]);
  EXPECT_EQ(again["signature"], finding["minimal"]["signature"]) << "judged by the same property's check";
}

// Every new finding of the run in `out`, each command replayed from another folder: at most `most` findings.
int replay_findings(const fs::path& out, size_t most) {
  const json summary = json::parse(slurp(out / "summary.json"));
  const std::string md = slurp(out / "summary.md");
  const std::vector<std::string> replays = markdown_commands(md, "replay"), reproduces = markdown_commands(md, "reproduce");
  int replayed = 0;
  for (size_t k = 0; k < summary["findings"].size() && k < most; ++k) {
    const json& f = summary["findings"][k];
    if (f["verdict"] == "known") continue;
    ++replayed;
    expect_same_verdict(f, f["replay_command"], "summary.json's replay_command");
    expect_same_verdict(f, f["reproduce_command"], "summary.json's reproduce_command");
    EXPECT_LT(k, std::min(replays.size(), reproduces.size())) << md;
    if (k >= std::min(replays.size(), reproduces.size())) continue;
    EXPECT_EQ(replays[k], f["replay_command"]) << md;
    expect_same_verdict(f, replays[k], "summary.md's replay line");
    expect_same_verdict(f, reproduces[k], "summary.md's reproduce line");
  }
  return replayed;
}

// A --no-known --no-config run of `cases` cases of `property`, which must find something new; then its first two
// findings replayed (replay_findings).
void run_and_replay(const std::string& property, int cases) {
  const fs::path out = scratch(property);
  const CliRun r = broadcheck("run --seed 1 --jobs 1 --no-replay --no-known --no-config --quiet --cases " +
                              std::to_string(cases) + " --property " + property + " --out " + out.string());
  ASSERT_EQ(r.exit_code, 1) << r.output;
  EXPECT_GE(replay_findings(out, 2), 1) << r.output;
}

}  // namespace

// Without --no-known the findings would be known divergences, and without --no-config NumPy would vote: the
// replay must carry both to give the run's verdict.
TEST(ReplayCommands, ABuiltInFindingReplaysFromAnotherFolder) { run_and_replay("inplace_agree", 100); }

// A finding of a property with a check of its own (a fused op against its unfused form on each implementation
// alone) replays under that check, not as a corpus case on every oracle.
TEST(ReplayCommands, AnEquivalenceFindingReplaysUnderItsPropertysCheck) {
  run_and_replay("addc_equivalence", 60);
  const CliRun unknown = broadcheck("replay --no-config -q --property nope --case '{\"op\": \"add\", \"shapes\": [[2], [2]]}' "
                                    "--out " + scratch("unknown-property").string());
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--property: unknown property \"nope\"; valid: elementwise_agree"), std::string::npos)
      << unknown.output;
}

// The adapter is named by a path relative to the folder the run started in; the replays run elsewhere.
TEST(ReplayCommands, AnAdapterFindingReplaysFromAnotherFolder) {
  const fs::path out = scratch("adapter");
  const CliRun r = shell_in(
      bc::test_source_dir(),
      bc::test_binary_dir() + "/broadcheck run --seed 1 --cases 400 --jobs 1 --no-config --no-replay --property elementwise_agree "
          "--oracle 'planted=/usr/bin/python3 tests/oracles/adapters/shape_adapter.py planted' -q --out " +
          out.string());
  ASSERT_EQ(r.exit_code, 1) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  int adapter_findings = 0;
  for (const json& f : summary["findings"]) {
    if (f["verdict"] == "known" || f["minimal"]["odd_ones"] != json::array({"planted"})) continue;
    ++adapter_findings;
    // The adapter alone, from another folder: the handshake, then the answer the run had from it.
    ASSERT_TRUE(f["adapter_commands"].contains("planted")) << f.dump();
    const CliRun alone =
        shell_in(fresh_folder("elsewhere"), "(" + f["adapter_commands"]["planted"].get<std::string>() + ") < /dev/null");
    EXPECT_EQ(alone.exit_code, 0) << alone.output;
    const size_t second = alone.output.find('\n') + 1;
    ASSERT_LT(second, alone.output.size()) << alone.output;
    const json answer = json::parse(alone.output.substr(second))["outcome"];
    const json& had = f["minimal"]["outcomes"]["planted"];
    EXPECT_EQ(answer["status"], had["status"]) << alone.output;
    EXPECT_EQ(answer["shape"], had["shape"]) << alone.output;
    EXPECT_EQ(f["regression_draft"].get<std::string>().find("printf"), std::string::npos)
        << "the draft is C++ comments and tests; the shell command is apart";
  }
  ASSERT_GE(adapter_findings, 1) << r.output;
  EXPECT_GE(replay_findings(out, 2), 1);
}
