// Broken adapters through `broadcheck run` (tests/oracles/adapters/shape_adapter.py in its faulty modes): a batch
// answer always one outcome short, a crash at the Nth request under each --shrink mode, a hang beside a good
// adapter, a huge answer, a deeply nested one and stderr spam. None of those runs may pass, and none may blame
// anyone but the broken adapter: its fault is its own finding (harness/adapter_fault.h), never flaky, never moved
// onto another voter, with the end of its stderr in the outcome and none of it on the console.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_util.h"

using nlohmann::json;

namespace {

const std::string kShapeAdapter =
    "/usr/bin/python3 " + bc::test_source_dir() + "/tests/oracles/adapters/shape_adapter.py";

struct Broken {
  CliRun run;
  json summary;
  std::vector<std::string> results;
};

// `what` (a run's or a replay's arguments) with the shape adapter as `name` in `mode`, next to a good one (`good`),
// every case in results.jsonl.
Broken run_broken(const std::string& name, const std::string& mode, const std::string& what) {
  const fs::path out = scratch(name + "-" + std::to_string(std::hash<std::string>()(mode + what)));
  const CliRun r = broadcheck(what + " --no-config --results all --oracle '" + name + "=" +
                              kShapeAdapter + " " + mode + "' --oracle 'good=" + kShapeAdapter + " good' --out " +
                              out.string());
  return {r, json::parse(slurp(out / "summary.json")), case_lines(out / "results.jsonl")};
}

// Generated cases of elementwise_agree (the shape adapter answers the float32 contiguous adds among them).
std::string generated(int cases) {
  return "run --seed 1 --jobs 1 --no-replay --property elementwise_agree --cases " + std::to_string(cases);
}

// The replay of a corpus of 2 x kBatch adds, the first [7] + [1] (the generators draw no size 7, which the faulty
// modes fault on), so that the adapters are sent whole batches ahead, as in a run.
std::string seven_first() {
  const fs::path corpus = scratch("seven.jsonl");
  std::ofstream out(corpus);
  out << R"({"id": "seven", "op": "add", "shapes": [[7], [1]]})" << "\n";
  for (int k = 8; k < 8 + 31; ++k)
    out << R"({"id": "fine-)" << k << R"(", "op": "add", "shapes": [[2, 1], [)" << k << "]]}\n";
  return "replay " + corpus.string();
}

// The run failed, every finding that fails it names `name` alone, nothing is flaky, and the good adapter never
// crashed or timed out. Returns the fault findings of `name` (signature "adapter_fault | NAME | ...").
std::vector<json> blamed_alone(const Broken& b, const std::string& name) {
  EXPECT_EQ(b.run.exit_code, 1) << b.run.output;
  std::vector<json> faults;
  for (const json& f : b.summary["findings"]) {
    if (f["verdict"] == "known") continue;
    EXPECT_EQ(f["minimal"]["odd_ones"], json::array({name})) << f["signature"];
    EXPECT_NE(f["reproduction"].value("kind", ""), "flaky") << f.dump();
    if (f["signature"].get<std::string>().rfind("adapter_fault | " + name + " | ", 0) == 0) faults.push_back(f);
  }
  EXPECT_EQ(b.summary["verdicts"].value("flaky", 0), 0) << b.summary["verdicts"].dump();
  for (const std::string& line : b.results) {
    const json good = json::parse(line)["outcomes"].value("good", json::object());
    EXPECT_NE(good.value("status", ""), "timeout") << line;
    EXPECT_NE(good.value("status", ""), "crash") << line;
  }
  return faults;
}

// The detail of `name`'s outcome in a finding's minimal case.
std::string detail_of(const json& finding, const std::string& name) {
  return finding["minimal"]["outcomes"][name].value("detail", "");
}

}  // namespace

TEST(AdapterFaultCli, ABatchAnswerAlwaysOneShortFailsTheRunAsTheAdaptersFault) {
  const Broken b = run_broken("short", "short", generated(60));
  const std::vector<json> faults = blamed_alone(b, "short");
  ASSERT_EQ(faults.size(), 1u) << b.run.output;
  EXPECT_NE(detail_of(faults[0], "short").find("\"outcomes\" must hold"), std::string::npos) << faults[0].dump();
  EXPECT_NE(b.run.output.find("NEW adapter_fault | short | crash"), std::string::npos) << b.run.output;
}

TEST(AdapterFaultCli, ACrashAtTheNthRequestFailsTheRunUnderEveryShrinkMode) {
  for (const char* shrink : {"none", "new", "all"}) {
    const Broken b = run_broken("crashat", "crashat 4", generated(100) + " --shrink " + shrink);
    const std::vector<json> faults = blamed_alone(b, "crashat");
    ASSERT_EQ(faults.size(), 1u) << shrink << "\n" << b.run.output;
    const std::string detail = detail_of(faults[0], "crashat");
    EXPECT_NE(detail.find("at request 4 of its process"), std::string::npos) << detail;
    EXPECT_NE(detail.find("MemoryError: request 4 is one too many"), std::string::npos) << "its stderr: " << detail;
    EXPECT_EQ(b.run.output.find("MemoryError"), std::string::npos) << "stderr on the console:\n" << b.run.output;
  }
}

TEST(AdapterFaultCli, AHangingAdapterDoesNotMakeAnotherTimeOut) {
  const Broken b = run_broken("hang", "hang", seven_first() + " --timeout-ms 1000");
  blamed_alone(b, "hang");
  long hung = 0;
  for (const std::string& line : b.results)
    hung += json::parse(line)["outcomes"].value("hang", json::object()).value("status", "") == "timeout";
  EXPECT_GT(hung, 0) << "no case hung: the test shows nothing";
}

TEST(AdapterFaultCli, AHugeOrDeeplyNestedAnswerIsThatAdaptersProtocolError) {
  for (const auto& [mode, words] : {std::pair<std::string, std::string>{"huge", "an answer line longer than 1048576 bytes"},
                                    {"deep", "the answer nests deeper than 32 levels"}}) {
    const Broken b = run_broken(mode, mode, seven_first());
    blamed_alone(b, mode);
    long refused = 0;
    for (const std::string& line : b.results) {
      const std::string detail = json::parse(line)["outcomes"].value(mode, json::object()).value("detail", "");
      EXPECT_LT(detail.size(), 8192u);
      refused += detail.find(words) != std::string::npos;
    }
    EXPECT_GT(refused, 0) << mode << "\n" << b.run.output;
  }
}

TEST(AdapterFaultCli, StderrIsKeptInTheCrashOutcomeBoundedAndOffTheConsole) {
  const Broken b = run_broken("spam", "spam", seven_first());
  blamed_alone(b, "spam");
  EXPECT_EQ(b.run.output.find("spam spam"), std::string::npos) << b.run.output.substr(0, 2000);
  long crashes = 0;
  for (const std::string& line : b.results) {
    const json spam = json::parse(line)["outcomes"].value("spam", json::object());
    if (spam.value("status", "") != "crash") continue;
    ++crashes;
    const std::string detail = spam.value("detail", "");
    EXPECT_NE(detail.find("RuntimeError: the spam adapter fails on a 7"), std::string::npos) << detail;
    EXPECT_LT(detail.size(), 4096u + 512u) << "the stderr kept is bounded";
  }
  EXPECT_GT(crashes, 0) << b.run.output;
}

// An adapter whose handshake came in time when it was registered, but whose next starts (each job's first) miss the
// deadline: such a start is the failure of the case it was started for, blamed on that adapter (here it does not
// recur, so the case is flaky), and the run goes on. Before, a job asked the new adapter for its version first and
// the missed deadline ended the run as broadcheck's own internal error (exit 3).
TEST(AdapterFaultCli, AnAdapterSlowToStartAgainIsItsOwnFailureNotAnInternalError) {
  const fs::path count = scratch("slow-starts");
  const fs::path wrapper = scratch("slow_adapter.sh");
  std::ofstream(wrapper) << "n=$(cat " << count.string() << " 2>/dev/null || echo 0); echo $((n + 1)) > "
                         << count.string() << "\ncase $n in 1|2) sleep 3;; esac\nexec " << kShapeAdapter << " good\n";
  const fs::path out = scratch("slow-start-run");
  const CliRun r = broadcheck("run --seed 1 --jobs 2 --no-replay --property elementwise_agree --cases 20 "
                              "--timeout-ms 1000 --no-config --oracle 'slow=sh " + wrapper.string() + "' --out " +
                              out.string());
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.output;
  EXPECT_EQ(r.output.find("internal error"), std::string::npos) << r.output;
  const json summary = json::parse(slurp(out / "summary.json"));
  EXPECT_EQ(summary["versions"].value("slow", ""), "shape adapter good") << summary["versions"].dump();
  EXPECT_GE(std::stoi(slurp(count)), 3) << "the jobs did not start the adapter again";
  for (const json& f : summary["findings"]) {
    if (f["verdict"] == "known") continue;
    const json& odd = f["minimal"]["odd_ones"];
    EXPECT_NE(std::find(odd.begin(), odd.end(), json("slow")), odd.end()) << f["signature"];
  }
}
