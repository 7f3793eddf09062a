// The external oracle against real adapter processes (tests/oracles/adapters/shape_adapter.py): answers come back,
// cases outside the capabilities are not sent, and an adapter that crashes, hangs, answers garbage or exits gives
// that case's outcome, naming the adapter (with the end of its stderr), while the next case gets a fresh process; a
// failure that is no case's alone but recurs when a fresh adapter is sent the same requests is the adapter's fault;
// an answer over the protocol's limits is refused; a protocol-2 adapter (build/engine_adapter) is sent gradient cases
// with their upstream gradient, in batches too, and a protocol-1 one (engine_adapter 1) is not sent grad_seed cases;
// prepared adapters start together.
#include "oracles/external_oracle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <thread>
#include <utility>

#include "harness/shell_quote.h"
#include "test_paths.h"

namespace bc {
namespace {

using namespace std::chrono_literals;
Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

std::string adapter(const std::string& mode) {
  return "/usr/bin/python3 " + bc::test_source_dir() + "/tests/oracles/adapters/shape_adapter.py " + mode;
}

const Case kFine = make_case(R"({"op": "add", "shapes": [[2, 1], [3]]})");
const Case kSeven = make_case(R"({"op": "add", "shapes": [[7], [1]]})");

// The lines in `path`: the cases a `log` or `crashlog` adapter has read, one line each.
long lines_in(const std::string& path) {
  std::ifstream in(path);
  return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
}

// The requests those cases came in: the distinct request ids in `path`.
size_t requests_in(const std::string& path) {
  std::ifstream in(path);
  std::set<std::string> ids;
  for (std::string id; std::getline(in, id);) ids.insert(id);
  return ids.size();
}

// `n` cases the shape adapter answers [2, 1] + [k] -> [2, k] (k from 8 up: a dim of 7 is what its faulty modes
// fault on), with those answers.
std::pair<std::vector<Case>, std::vector<std::string>> fine_cases(size_t n) {
  std::pair<std::vector<Case>, std::vector<std::string>> out;
  for (size_t k = 8; k < 8 + n; ++k) {
    const std::string size = std::to_string(k);
    out.first.push_back(make_case(("{\"op\": \"add\", \"shapes\": [[2, 1], [" + size + "]]}").c_str()));
    out.second.push_back("ok [2, " + size + "] float32");
  }
  return out;
}

// Waits (at most 5 s) until `path` has `n` lines; returns how many it has.
long wait_for_lines(const std::string& path, long n) {
  for (int k = 0; k < 500 && lines_in(path) < n; ++k) std::this_thread::sleep_for(10ms);
  return lines_in(path);
}

// Gradient cases whose upstream gradient is drawn from grad_seed: a graph and an in-place op (broadcheck's engine
// answers them, in protocol 2 from the upstream each request carries).
const Case kSeededGraph = make_case(R"({"op": "graph", "shapes": [[3], [2, 1]], "dtypes": ["float64", "float32"],
    "program": [{"op": "mul", "args": [0, 1]}, {"op": "exp", "args": [2]}], "requires_grad": [true, true],
    "values": {"seed": 9}, "grad_seed": 3})");
const Case kSeededInplace = make_case(R"({"op": "mul_", "shapes": [[2, 2], [2]], "requires_grad": [false, true],
    "values": {"seed": 4}, "grad_seed": 7})");

TEST(ExternalOracle, AProtocol2AdapterGetsEveryGradientCaseWithItsUpstream) {
  const std::string engine_adapter = bc::test_binary_dir() + "/engine_adapter";
  ExternalOracle two("served", engine_adapter, 5000ms);
  EXPECT_EQ(two.capabilities().protocol, 2);
  const std::vector<Outcome> got = two.run_batch({kSeededGraph, kSeededInplace});
  for (size_t k = 0; k < got.size(); ++k) {
    ASSERT_EQ(got[k].status, Status::ok) << got[k].detail;
    EXPECT_EQ(got[k].grads.size(), 2u);
  }
  EXPECT_EQ(got[1].grads[0], std::nullopt);
  // Each gradient differs from the one backward from ones would give: the upstream was used.
  Case ones = kSeededInplace;
  ones.grad_seed.reset();
  EXPECT_FALSE(two.run(ones).grads[1] == got[1].grads[1]);
  ExternalOracle one("served", engine_adapter + " 1", 5000ms);
  EXPECT_EQ(one.capabilities().protocol, 1);
  const std::vector<Outcome> old = one.run_batch({kSeededGraph, ones});
  EXPECT_EQ(old[0].detail, "an upstream gradient other than ones (grad_seed) is not in protocol 1");
  EXPECT_EQ(old[1].status, Status::ok) << "no upstream sent in protocol 1 (the adapter refuses one): " << old[1].detail;
  EXPECT_EQ(old[1], two.run(ones));
}

TEST(ExternalOracle, AnswersThroughTheProtocol) {
  ExternalOracle o("shapes", adapter("good"), 5000ms);
  EXPECT_EQ(o.name(), "shapes");
  EXPECT_EQ(o.version(), "shape adapter good");
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  EXPECT_EQ(summarize(o.run(make_case(R"({"op": "add", "shapes": [[2], [3]]})"))), "error broadcast");
  EXPECT_EQ(summarize(o.run(kSeven)), "ok [7] float32");
  // Submitted early, then run: the answer is the same.
  o.submit(kFine);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  // Submitted, then another case run: the first answer is dropped, the second is right.
  o.submit(kSeven);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
}

TEST(ExternalOracle, UndeclaredCasesAreUnsupportedAndNotSent) {
  ExternalOracle o("shapes", adapter("crash"), 5000ms);
  const Outcome u = o.run(make_case(R"({"op": "mul", "shapes": [[7], [7]]})"));
  EXPECT_EQ(u.status, Status::unsupported);
  EXPECT_EQ(u.detail, "not declared by the adapter: op mul");
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32") << "the adapter did not crash: mul was never sent";
}

struct Fault {
  const char* mode;
  Status status;
  const char* detail;
  friend void PrintTo(const Fault& f, std::ostream* os) { *os << f.mode; }
};

class ExternalOracleFaults : public ::testing::TestWithParam<Fault> {};

TEST_P(ExternalOracleFaults, AreThatCasesOutcomeAndTheNextCaseGetsAFreshAdapter) {
  ExternalOracle o("shapes", adapter(GetParam().mode), 1000ms);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  const Outcome bad = o.run(kSeven);
  EXPECT_EQ(bad.status, GetParam().status);
  EXPECT_EQ(bad.detail, GetParam().detail);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
}

INSTANTIATE_TEST_SUITE_P(
    EveryFault, ExternalOracleFaults,
    ::testing::Values(Fault{"crash", Status::crash, "shapes adapter: exited (SIGABRT (exit status 134)); stderr: Aborted"},
                      Fault{"exit", Status::crash, "shapes adapter: exited (exit status 3)"},
                      Fault{"hang", Status::timeout, "shapes adapter: no answer within 1000 ms"},
                      Fault{"garbage", Status::crash,
                            "shapes adapter: malformed answer: the answer is not JSON: [json.exception.parse_error.101] "
                            "parse error at line 1, column 2: syntax error while parsing value - invalid literal; last "
                            "read: 'th'"}),
    [](const auto& info) { return std::string(info.param.mode); });

// A batch is one request; when it fails, its cases run one by one, so the fault is the faulty case's alone.
TEST(ExternalOracle, BatchesAnswerAsSingleCasesAndAFaultStaysWithItsCase) {
  ExternalOracle good("shapes", adapter("good"), 5000ms);
  const Case mul = make_case(R"({"op": "mul", "shapes": [[2], [2]]})");
  std::vector<std::string> got;
  for (const Outcome& o : good.run_batch({kFine, kSeven, mul})) got.push_back(summarize(o));
  EXPECT_EQ(got, (std::vector<std::string>{"ok [2, 3] float32", "ok [7] float32", "unsupported"}));
  ExternalOracle crashing("shapes", adapter("crash"), 5000ms);
  const std::vector<Outcome> batch = crashing.run_batch({kFine, kSeven, kFine});
  EXPECT_EQ(summarize(batch[0]), "ok [2, 3] float32");
  EXPECT_EQ(batch[1].status, Status::crash);
  EXPECT_EQ(summarize(batch[2]), "ok [2, 3] float32");
}

// Submitted cases go to the adapter ahead, in batch requests: a full batch as soon as it is submitted, before any
// case is run; the rest with the first run. A case submitted twice is sent once.
TEST(ExternalOracle, SubmittedCasesGoToTheAdapterAheadInBatches) {
  const std::string log = ::testing::TempDir() + "external_oracle_queue.log";
  std::remove(log.c_str());
  ExternalOracle o("shapes", adapter("log " + log), 5000ms);
  o.capabilities();  // submit() queues only to a running adapter
  const auto [cases, expected] = fine_cases(ExternalOracle::kBatch + 2);
  for (const Case& c : cases) o.submit(c);
  o.submit(cases[1]);  // queued already: not sent twice
  EXPECT_EQ(wait_for_lines(log, ExternalOracle::kBatch), static_cast<long>(ExternalOracle::kBatch))
      << "the adapter did not receive the full batch before the first run";
  EXPECT_EQ(requests_in(log), 1u);
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(summarize(o.run(cases[k])), expected[k]) << k;
  EXPECT_EQ(lines_in(log), static_cast<long>(cases.size()));
  EXPECT_EQ(requests_in(log), 2u) << "a full batch, then the other two cases in one request";
}

// When the restart in submit() fails, that failure is the next case's outcome, and that case does not try again.
TEST(ExternalOracle, AnAdapterThatFailsToRestartInSubmitIsTriedOncePerCase) {
  const std::string starts = ::testing::TempDir() + "external_oracle_starts.log";
  const std::string broken = ::testing::TempDir() + "external_oracle_broken";
  std::remove(starts.c_str());
  std::remove(broken.c_str());
  ExternalOracle o("shapes", "echo start >> " + starts + "; test -e " + broken + " && exit 5; exec " + adapter("crash"),
                   5000ms);
  o.capabilities();
  EXPECT_EQ(o.run(kSeven).status, Status::crash);
  EXPECT_EQ(lines_in(starts), 1);
  std::ofstream(broken) << "the adapter exits before its handshake now\n";
  o.submit(kFine);
  EXPECT_EQ(lines_in(starts), 2);
  const Outcome failed = o.run(kFine);
  EXPECT_EQ(failed.status, Status::crash);
  EXPECT_NE(failed.detail.find("did not start"), std::string::npos) << failed.detail;
  EXPECT_EQ(lines_in(starts), 2) << "the case tried a second start";
  std::remove(broken.c_str());
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  EXPECT_EQ(lines_in(starts), 3);
}

// After a crash the adapter is gone; the cases submitted next start a fresh one at once and reach it together, in
// a batch, before any of them is run (not one by one as each is run).
TEST(ExternalOracle, CasesSubmittedAfterACrashReachAFreshAdapterAhead) {
  const std::string log = ::testing::TempDir() + "external_oracle_restart.log";
  std::remove(log.c_str());
  ExternalOracle o("shapes", adapter("crashlog " + log), 5000ms);
  o.capabilities();
  EXPECT_EQ(o.run(kSeven).status, Status::crash);
  const auto [cases, expected] = fine_cases(ExternalOracle::kBatch);
  for (const Case& c : cases) o.submit(c);
  const long read = 1 + static_cast<long>(ExternalOracle::kBatch);  // the crashing case, then the batch
  EXPECT_EQ(wait_for_lines(log, read), read) << "the fresh adapter did not receive the queued cases before the first run";
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(summarize(o.run(cases[k])), expected[k]) << k;
}

// A batch answered with a line that is not JSON is no one case's fault yet: its cases run again alone, and only the
// case that garbles its answer alone is a crash.
TEST(ExternalOracle, AGarbledBatchAnswerIsTheGarblingCasesOwn) {
  ExternalOracle o("shapes", adapter("garbage"), 5000ms);
  o.capabilities();
  auto [cases, expected] = fine_cases(ExternalOracle::kBatch);
  cases[3] = kSeven;
  for (const Case& c : cases) o.submit(c);
  for (size_t k = 0; k < cases.size(); ++k) {
    const Outcome got = o.run(cases[k]);
    if (k != 3) {
      EXPECT_EQ(summarize(got), expected[k]) << k;
      continue;
    }
    EXPECT_EQ(got.status, Status::crash);
    EXPECT_NE(got.detail.find("malformed answer"), std::string::npos) << got.detail;
  }
}

// A queue far larger than a pipe holds either way (64 KiB): this process writes what the adapter's input takes
// while it waits for answers, so an adapter blocked on writing its answers is drained and nothing deadlocks.
TEST(ExternalOracle, AQueueLargerThanThePipesDoesNotDeadlock) {
  ExternalOracle o("shapes", adapter("good"), 5000ms);
  o.capabilities();
  std::vector<Case> cases;
  std::vector<std::string> expected;  // [m, 1] with [k] broadcasts to [m, k]
  for (int k = 0; k < 3000; ++k) {
    const std::string m = std::to_string(k % 50 + 1), n = std::to_string(k);
    cases.push_back(make_case(("{\"op\": \"add\", \"shapes\": [[" + m + ", 1], [" + n + "]]}").c_str()));
    expected.push_back("ok [" + m + ", " + n + "] float32");
  }
  for (const Case& c : cases) o.submit(c);
  for (size_t k = 0; k < cases.size(); ++k) ASSERT_EQ(summarize(o.run(cases[k])), expected[k]) << k;
}

// A queue of cases where one crashes the adapter: the crash is that case's, the cases after it get a fresh adapter,
// and a case submitted but not run does not shift the answers.
TEST(ExternalOracle, AQueuedCrashStaysWithItsCase) {
  ExternalOracle o("shapes", adapter("crash"), 5000ms);
  o.capabilities();
  const Case two = make_case(R"({"op": "add", "shapes": [[2], [1]]})");
  for (const Case& c : {kFine, kSeven, two, kFine}) o.submit(c);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  const Outcome crashed = o.run(kSeven);
  EXPECT_EQ(crashed.status, Status::crash);
  EXPECT_EQ(crashed.detail, "shapes adapter: exited (SIGABRT (exit status 134)); stderr: Aborted");  // the shell's word
  EXPECT_EQ(summarize(o.run(two)), "ok [2] float32");  // the second kFine is dropped unread below
  o.submit(kSeven);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
}

// An adapter that reads ahead dies with several cases in its hands: they run again alone, oldest first, each in a
// fresh adapter, so the crash is blamed on the case that caused it (the second), not on the oldest one.
TEST(ExternalOracle, ADeathWithSeveralCasesInHandRunsThemAgainAlone) {
  ExternalOracle o("shapes", adapter("readahead"), 5000ms);
  o.capabilities();
  const Case two = make_case(R"({"op": "add", "shapes": [[2], [1]]})");
  for (const Case& c : {kFine, kSeven, two}) o.submit(c);
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  const Outcome crashed = o.run(kSeven);
  EXPECT_EQ(crashed.status, Status::crash);
  EXPECT_EQ(crashed.detail, "shapes adapter: exited (SIGABRT (exit status 134)); stderr: Aborted");  // the shell's word
  EXPECT_EQ(summarize(o.run(two)), "ok [2] float32");  // behind the culprit: queued again to a fresh adapter
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
}

// The cases in a dead adapter's hands run again one by one in one fresh adapter, not each in its own: the case that
// kills that one too runs alone in another and keeps its crash, and the cases after it go to a fresh adapter. Six
// cases in one batch, the fifth killing the adapter: 4 starts (a start per case run again made it 7).
TEST(ExternalOracle, TheCasesInADeadAdaptersHandsRunAgainInOneFreshAdapter) {
  const std::string starts = ::testing::TempDir() + "external_oracle_suspects.log";
  std::remove(starts.c_str());
  ExternalOracle o("shapes", "echo start >> " + starts + "; exec " + adapter("readahead"), 5000ms);
  auto [cases, expected] = fine_cases(5);
  cases.insert(cases.begin() + 4, kSeven);
  expected.insert(expected.begin() + 4, "");
  for (const Case& c : cases) o.submit(c);
  for (size_t k = 0; k < cases.size(); ++k) {
    const Outcome out = o.run(cases[k]);
    if (k != 4) EXPECT_EQ(summarize(out), expected[k]) << k;
    else EXPECT_EQ(out.detail, "shapes adapter: exited (SIGABRT)");  // the shell execs the adapter
  }
  EXPECT_EQ(lines_in(starts), 4) << "the batch's, the cases' again, the crashing case's alone, the last case's";
  EXPECT_TRUE(o.take_faults().empty());
}

// A hang with several cases in hand: the one that hangs alone gets the timeout, the others their answers.
TEST(ExternalOracle, AHangWithSeveralCasesInHandIsTheHangingCasesOwn) {
  ExternalOracle o("shapes", adapter("hang"), 1000ms);
  o.capabilities();
  const Case two = make_case(R"({"op": "add", "shapes": [[2], [1]]})");
  for (const Case& c : {kSeven, two}) o.submit(c);
  const Outcome hung = o.run(kSeven);
  EXPECT_EQ(hung.status, Status::timeout);
  EXPECT_EQ(hung.detail, "shapes adapter: no answer within 1000 ms");
  EXPECT_EQ(summarize(o.run(two)), "ok [2] float32");
}

// A death that does not recur when the cases in hand run alone is not swallowed: the oldest case keeps it, saying
// so (one-at-a-time, it would most likely have been that case's), and the others get their answers. The `once`
// adapter aborts on the first case any of its processes sees; its state file counts every case the processes saw.
TEST(ExternalOracle, ADeathThatDoesNotRecurAloneIsTheOldestCasesSayingSo) {
  const std::string state = ::testing::TempDir() + "external_oracle_once.state";
  std::remove(state.c_str());
  ExternalOracle o("shapes", adapter("once " + state), 5000ms);
  o.capabilities();
  const Case two = make_case(R"({"op": "add", "shapes": [[2], [1]]})");
  for (const Case& c : {kFine, kSeven, two}) o.submit(c);
  const Outcome crashed = o.run(kFine);
  EXPECT_EQ(crashed.status, Status::crash);
  EXPECT_EQ(crashed.detail,
            "shapes adapter: exited (SIGABRT (exit status 134)); stderr: Aborted; not reproduced when the 3 case(s) in the adapter's "
            "hands ran again one by one in a fresh adapter, any failing there alone in another, nor when a fresh "
            "adapter was sent the same 1 request(s) again");
  EXPECT_EQ(summarize(o.run(kSeven)), "ok [7] float32");
  EXPECT_EQ(summarize(o.run(two)), "ok [2] float32");
  std::ifstream seen(state);
  int turns = 0;
  seen >> turns;
  EXPECT_EQ(turns, 7) << "the first case, then each of the three alone, then the batch of three again";
  EXPECT_TRUE(o.take_faults().empty()) << "a death that does not recur is no fault of the adapter's";
}

// Four fine cases run one by one on `o`, each answered rightly (the case at a faulty request by
// itself, alone); the one fault its oracle then hands over, after checking it is the third request's.
AdapterFault fault_at_third_request(ExternalOracle& o) {
  const auto [cases, expected] = fine_cases(4);
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(summarize(o.run(cases[k])), expected[k]) << k;
  std::vector<AdapterFault> faults = o.take_faults();
  EXPECT_TRUE(o.take_faults().empty()) << "taken once";
  if (faults.size() != 1u) {
    ADD_FAILURE() << faults.size() << " faults";
    return {};
  }
  EXPECT_EQ(faults[0].oracle, "shapes");
  EXPECT_EQ(faults[0].request, 3);
  EXPECT_TRUE(same_case(faults[0].c, cases[2]));
  return faults[0];
}

// An adapter that dies at its 3rd request whatever it holds: the case it held is fine alone, and a fresh adapter
// sent the same three requests dies again, so the death is the adapter's fault, with the end of its stderr, and the
// case keeps its alone answer.
TEST(ExternalOracle, ACrashAtTheNthRequestIsTheAdaptersFaultNotTheCases) {
  ExternalOracle o("shapes", adapter("crashat 3"), 5000ms);
  const AdapterFault f = fault_at_third_request(o);
  EXPECT_EQ(f.status, Status::crash);
  EXPECT_NE(f.detail.find("exited (SIGABRT (exit status 134)); stderr: Traceback"), std::string::npos) << f.detail;
  EXPECT_NE(f.detail.find("it failed again when a fresh adapter was sent the same 3 request(s): request 3: exited"),
            std::string::npos)
      << f.detail;
  EXPECT_NE(f.reproduction.find(" | (" + adapter("crashat 3") + ")"), std::string::npos) << f.reproduction;
}

// A hang at the 3rd request whatever it holds is the adapter's fault too, a timeout.
TEST(ExternalOracle, AHangAtTheNthRequestIsTheAdaptersFaultNotTheCases) {
  ExternalOracle o("shapes", adapter("hangat 3"), 500ms);
  const AdapterFault f = fault_at_third_request(o);
  EXPECT_EQ(f.status, Status::timeout);
  EXPECT_NE(f.detail.find("same 3 request(s): request 3: no answer within 500 ms"), std::string::npos) << f.detail;
}

// A batch answered with one outcome too few, every time: each case is fine alone, so it is the adapter's fault, and
// the adapter is sent no more batches.
TEST(ExternalOracle, ABatchAnswerAlwaysShortIsTheAdaptersFault) {
  ExternalOracle o("shapes", adapter("short"), 5000ms);
  const auto [cases, expected] = fine_cases(4);
  const std::vector<Outcome> got = o.run_batch(cases);
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(summarize(got[k]), expected[k]) << k;
  const std::vector<AdapterFault> faults = o.take_faults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_NE(faults[0].detail.find("malformed answer: \"outcomes\" must hold 4 outcomes"),
            std::string::npos)
      << faults[0].detail;
  // After a fault at a batch it is sent one case per request, which it answers: no fault, and no batch, again.
  EXPECT_NE(faults[0].detail.find("; it is sent no more batches"), std::string::npos) << faults[0].detail;
  const std::vector<Outcome> later = o.run_batch(cases);
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(summarize(later[k]), expected[k]) << k;
  EXPECT_TRUE(o.take_faults().empty());
}

// An answer over the protocol's limits is refused with the reason, never stored: a 200 MB detail (over the line limit
// of a shape-level case) and an answer nested 100000 deep.
TEST(ExternalOracle, AnAnswerOverTheLimitsIsAProtocolError) {
  ExternalOracle huge("shapes", adapter("huge"), 10000ms);
  const Outcome big = huge.run(kSeven);
  EXPECT_EQ(big.status, Status::crash);
  EXPECT_EQ(big.detail.rfind("shapes adapter: an answer line longer than 1048576 bytes", 0), 0u) << big.detail.substr(0, 300);
  EXPECT_LT(big.detail.size(), 1024u);
  ExternalOracle deep("shapes", adapter("deep"), 5000ms);
  const Outcome nested = deep.run(kSeven);
  EXPECT_EQ(nested.status, Status::crash);
  EXPECT_EQ(nested.detail, "shapes adapter: malformed answer: the answer nests deeper than 32 levels");
  EXPECT_EQ(summarize(deep.run(kFine)), "ok [2, 3] float32");
}

// Its stderr never blocks an adapter that writes much of it, and the end of it is part of a crash's outcome.
TEST(ExternalOracle, StderrIsDrainedAndItsEndIsInTheCrashOutcome) {
  ExternalOracle o("shapes", adapter("spam"), 5000ms);
  const auto [cases, expected] = fine_cases(40);  // 64 KiB of stderr each, far more than a pipe holds
  const std::vector<Outcome> got = o.run_batch(cases);
  for (size_t k = 0; k < cases.size(); ++k) EXPECT_EQ(summarize(got[k]), expected[k]) << k;
  const Outcome crashed = o.run(kSeven);
  EXPECT_EQ(crashed.status, Status::crash);
  EXPECT_EQ(crashed.detail.rfind("shapes adapter: exited (SIGABRT (exit status 134)); stderr (the last 4096 of ", 0), 0u)
      << crashed.detail.substr(0, 300);
  EXPECT_NE(crashed.detail.find("RuntimeError: the spam adapter fails on a 7"), std::string::npos);
  EXPECT_LT(crashed.detail.size(), AdapterProcess::kStderrTail + 200);
}

// An answer that came in time waits in the pipe while this process waits for another implementation; read after
// the deadline, it is still the answer, not a timeout.
TEST(ExternalOracle, AnAnswerWaitingPastTheDeadlineIsStillTheAnswer) {
  ExternalOracle o("shapes", adapter("single"), 300ms);
  o.capabilities();
  o.submit(kFine);
  o.submit(kSeven);  // each a request of its own, both sent at once
  std::this_thread::sleep_for(600ms);  // another oracle's hang
  EXPECT_EQ(summarize(o.run(kFine)), "ok [2, 3] float32");
  EXPECT_EQ(summarize(o.run(kSeven)), "ok [7] float32");
}

TEST(ExternalOracle, AnAdapterThatDoesNotStartIsNamedWithTheReason) {
  ExternalOracle bad("shapes", adapter("badhello"), 5000ms);
  try {
    bad.capabilities();
    FAIL() << "a handshake with protocol 99 was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the shapes adapter ("), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("did not start: the handshake speaks protocol 99"), std::string::npos)
        << e.what();
  }
  ExternalOracle missing("nothing", "/nonexistent/adapter", 5000ms);
  const Outcome o = missing.run(kFine);
  EXPECT_EQ(o.status, Status::crash);
  EXPECT_EQ(o.detail.rfind("nothing adapter: did not start: it ended before its handshake (exit status 127); stderr: ", 0), 0u)
      << o.detail;
  EXPECT_NE(o.detail.find("/nonexistent/adapter: not found"), std::string::npos) << o.detail;
}

// Prepared adapters start together: three `slowstart` adapters, each 1.5 s from its start to its handshake, all
// start before any is ready (started at its first case, each would be ready before the next started); the first
// case reads the handshake, and a prepared adapter that does not start is still that case's crash, saying why.
TEST(ExternalOracle, PreparedAdaptersStartTogether) {
  const std::string log = ::testing::TempDir() + "external_oracle_prepare.log";
  std::remove(log.c_str());
  std::vector<std::unique_ptr<ExternalOracle>> oracles;
  for (const char* name : {"a", "b", "c"}) {
    oracles.push_back(std::make_unique<ExternalOracle>(name, adapter("slowstart " + log), 10000ms));
    oracles.back()->prepare();
  }
  for (auto& o : oracles) EXPECT_EQ(summarize(o->run(kFine)), "ok [2, 3] float32") << o->name();
  std::ifstream in(log);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(lines, (std::vector<std::string>{"start", "start", "start", "ready", "ready", "ready"}));
  ExternalOracle missing("nothing", "/nonexistent/adapter", 5000ms);
  missing.prepare();
  const Outcome o = missing.run(kFine);
  EXPECT_EQ(o.status, Status::crash);
  EXPECT_EQ(o.detail.rfind("nothing adapter: did not start: it ended before its handshake (exit status 127); stderr: ", 0), 0u)
      << o.detail;
}

// The reproduction, run by /bin/sh from another folder, gets the adapter's answer to the case, also when the command
// starts with a cd (as a config file's and --oracle's commands do).
TEST(ExternalOracle, TheReproductionRunsTheCaseOnTheAdapterAlone) {
  const std::string command = "cd " + shell_quote(bc::test_source_dir() + "/tests/oracles/adapters") +
                              " && exec /usr/bin/python3 shape_adapter.py good";
  const std::string repro = external_reproduction(command, kFine);
  EXPECT_EQ(repro.rfind("printf '%s\\n' '{\"hello\":\"broadcheck\",\"protocol\":1,\"protocols\":[1,2]}' '{\"case\":", 0), 0u)
      << repro;
  EXPECT_EQ(repro.find('\n'), std::string::npos) << "one line, to paste: " << repro;
  FILE* shell = ::popen(("cd / && (" + repro + ") < /dev/null").c_str(), "r");
  ASSERT_NE(shell, nullptr);
  std::string output;
  for (char buf[4096]; std::fgets(buf, sizeof buf, shell);) output += buf;
  EXPECT_EQ(::pclose(shell), 0) << output;
  const size_t second = output.find('\n') + 1;
  ASSERT_LT(second, output.size()) << "the handshake and an answer: " << output;
  const nlohmann::json answer = nlohmann::json::parse(output.substr(second));
  EXPECT_EQ(answer["outcome"]["shape"], nlohmann::json::parse("[2, 3]")) << output;
}

}  // namespace
}  // namespace bc
