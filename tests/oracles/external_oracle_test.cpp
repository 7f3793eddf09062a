// The external oracle against real adapter processes (tests/oracles/adapters/shape_adapter.py): answers come back,
// cases outside the capabilities are not sent, and an adapter that crashes, hangs, answers garbage or exits gives
// that case's outcome, naming the adapter, while the next case gets a fresh process.
#include "oracles/external_oracle.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

using namespace std::chrono_literals;
Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

std::string adapter(const std::string& mode) {
  return "/usr/bin/python3 " BC_SOURCE_DIR "/tests/oracles/adapters/shape_adapter.py " + mode;
}

const Case kFine = make_case(R"({"op": "add", "shapes": [[2, 1], [3]]})");
const Case kSeven = make_case(R"({"op": "add", "shapes": [[7], [1]]})");

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
    ::testing::Values(Fault{"crash", Status::crash, "shapes adapter: exited (SIGABRT (exit status 134))"},
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
  EXPECT_EQ(o.detail, "nothing adapter: did not start: it ended before its handshake (exit status 127)");
}

TEST(ExternalOracle, TheReproductionPipesTheRequestIntoTheCommand) {
  const std::string repro = external_reproduction(adapter("good"), kFine);
  EXPECT_EQ(repro.rfind("printf '%s\\n' '{\"hello\":\"broadcheck\",\"protocol\":1}' '{\"case\":", 0), 0u) << repro;
  EXPECT_NE(repro.find("| " + adapter("good")), std::string::npos) << repro;
}

}  // namespace
}  // namespace bc
