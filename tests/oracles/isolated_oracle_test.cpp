#include "oracles/isolated_oracle.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "oracle_test_util.h"
#include "oracles/engine_oracle.h"

namespace bc {
namespace {

using testing::make_case;
using namespace std::chrono_literals;

constexpr auto kTimeout = 300ms;

// A test double for the wrapper's own mechanics. Shapes pick the misbehaviour: a first shape of [13] raises
// SIGSEGV, [8] SIGFPE, [9] SIGFPE on a thread of its own, [99] hangs for 10 s, [7] throws, [50] takes 300 ms. Otherwise: "add" answers ok (the first shape), "sub" an
// error whose message is not valid UTF-8, "mul" unsupported.
class FakeOracle : public Oracle {
 public:
  std::string name() const override { return "fake"; }
  std::string version() const override { return "fake 1.0"; }
  Outcome run(const Case& c) override {
    const Shape first = c.shapes.empty() ? Shape{} : c.shapes[0];
    if (first == Shape{13}) std::raise(SIGSEGV);
    if (first == Shape{8}) std::raise(SIGFPE);
    if (first == Shape{9}) std::thread([] { std::raise(SIGFPE); }).join();
    if (first == Shape{99}) std::this_thread::sleep_for(10s);
    if (first == Shape{7}) throw std::runtime_error("fake: thrown on purpose");
    if (first == Shape{50}) std::this_thread::sleep_for(300ms);
    if (c.op == Op::add) return Outcome::success(first, "int64");
    if (c.op == Op::sub) return Outcome::failure(ErrorKind::broadcast, "bytes \xff\xfe and \xc3\xa9 in a message");
    return Outcome::unsupported_because(std::string("fake has no ") + to_string(c.op));
  }
};

std::unique_ptr<Oracle> make_fake() { return std::make_unique<FakeOracle>(); }

std::unique_ptr<Oracle> isolated_fake() { return make_isolated_oracle(make_fake, kTimeout); }

long ms_since(std::chrono::steady_clock::time_point t0) {
  return static_cast<long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
}

int open_fds() {
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n;
}

// The pids of this process's children, from every thread's /proc/self/task/T/children.
std::set<pid_t> children() {
  std::set<pid_t> out;
  DIR* d = opendir("/proc/self/task");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/children");
    for (pid_t pid; in >> pid;) out.insert(pid);
  }
  closedir(d);
  return out;
}

bool has_children_file() { return std::ifstream("/proc/self/task/" + std::to_string(getpid()) + "/children").good(); }

// The one worker of the single live wrapper.
pid_t the_worker() {
  const std::set<pid_t> kids = children();
  return kids.size() == 1 ? *kids.begin() : -1;
}

void expect_no_child_left() {
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  if (has_children_file()) {
    EXPECT_TRUE(children().empty());
  }
}

TEST(IsolatedOracle, PassesOutcomesThroughUnchanged) {
  FakeOracle direct;
  auto wrapped = isolated_fake();
  EXPECT_EQ(wrapped->name(), "fake");
  EXPECT_EQ(wrapped->version(), "fake 1.0");
  for (const Case& c : {make_case("add", {{2, 3}, {3}}), make_case("add", {{}, {}}), make_case("sub", {{2}, {3}}),
                        make_case("mul", {{0, 5}, {1}}), make_case("add", {{INT64_MAX, 0, 1}, {1}})}) {
    const Outcome want = direct.run(c);
    EXPECT_EQ(wrapped->run(c), want) << describe(c) << ": " << summarize(want);
  }
}

TEST(IsolatedOracle, OutcomeJsonRoundTripIsLosslessForWhatOraclesBuild) {
  std::vector<Outcome> outcomes = {Outcome::success({}, "float32"), Outcome::success({0, 3, INT64_MAX}, "int64"),
                                   Outcome::success({2}, ""), Outcome::unsupported_because("no such op"),
                                   Outcome::unsupported_because("")};
  for (ErrorKind k : all_error_kinds()) outcomes.push_back(Outcome::failure(k, "message for " + std::string(to_string(k))));
  outcomes.push_back(Outcome::failure(ErrorKind::other, ""));
  Outcome crash;
  crash.status = Status::crash;
  crash.detail = "SIGFPE";
  Outcome timeout;
  timeout.status = Status::timeout;
  timeout.detail = "no answer within 300 ms";
  outcomes.push_back(crash);
  outcomes.push_back(timeout);
  for (const Outcome& o : outcomes) EXPECT_EQ(outcome_from_json(to_json(o)), o) << to_json(o).dump();
}

TEST(IsolatedOracle, CrashesBecomeOutcomesAndTheNextCaseGetsAFreshWorker) {
  FakeOracle direct;
  auto wrapped = isolated_fake();
  const Case fine = make_case("add", {{2, 3}, {3}});
  EXPECT_EQ(wrapped->run(fine), direct.run(fine));
  const pid_t first = the_worker();

  const Outcome segv = wrapped->run(make_case("add", {{13}, {1}}));
  EXPECT_EQ(segv.status, Status::crash);
  EXPECT_EQ(segv.detail, "SIGSEGV");
  EXPECT_EQ(wrapped->run(fine), direct.run(fine));
  if (has_children_file()) {
    EXPECT_NE(the_worker(), first);
  }

  const Outcome fpe = wrapped->run(make_case("sub", {{8}, {1}}));
  EXPECT_EQ(fpe.status, Status::crash);
  EXPECT_EQ(fpe.detail, "SIGFPE");
  EXPECT_EQ(summarize(fpe), "crash SIGFPE");
  const Case error = make_case("sub", {{2}, {3}});
  EXPECT_EQ(wrapped->run(error), direct.run(error));

  // Crash after crash: each case its own fresh worker.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(wrapped->run(make_case("add", {{13}, {1}})).detail, "SIGSEGV");
  EXPECT_EQ(wrapped->run(fine), direct.run(fine));
}

// OnSigfpe::recover: the same outcome as a worker's death by SIGFPE, from the same worker, for the case's own thread
// only; every other crash still ends the worker.
TEST(IsolatedOracle, ARecoveringWorkerAnswersItsSigfpeAsTheCrashItWouldHaveBeen) {
  FakeOracle direct;
  auto dying = isolated_fake();
  auto recovering = make_isolated_oracle(make_fake, kTimeout, OnSigfpe::recover);
  const Case fine = make_case("add", {{2, 3}, {3}}), fpe = make_case("sub", {{8}, {1}});
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  dying.reset();  // one worker alive, so that the_worker() names the recovering one
  const pid_t first = the_worker();

  const Outcome crash = recovering->run(fpe);
  EXPECT_EQ(crash, isolated_fake()->run(fpe));
  EXPECT_EQ(summarize(crash), "crash SIGFPE");
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  if (has_children_file()) {
    EXPECT_EQ(the_worker(), first);
  }

  // Queued behind and ahead of other cases, the crash is its own case's.
  const Case error = make_case("sub", {{2}, {3}});
  for (const Case& c : {fine, fpe, error, fpe, fine}) recovering->submit(c);
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  EXPECT_EQ(recovering->run(fpe), crash);
  EXPECT_EQ(recovering->run(error), direct.run(error));
  EXPECT_EQ(recovering->run(fpe), crash);
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  if (has_children_file()) {
    EXPECT_EQ(the_worker(), first);
  }

  // A SIGFPE on another thread, and any other signal, end the worker as before.
  EXPECT_EQ(recovering->run(make_case("add", {{9}, {1}})), crash);
  const pid_t second = the_worker();
  if (has_children_file()) {
    EXPECT_NE(second, first);
  }
  EXPECT_EQ(recovering->run(make_case("add", {{13}, {1}})).detail, "SIGSEGV");
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  if (has_children_file()) {
    EXPECT_NE(the_worker(), second);
  }
}

// What the recovered cases leaked goes with their worker: it is replaced after kSigfpeRecoveries of them.
TEST(IsolatedOracle, ARecoveringWorkerIsReplacedAfterItsQuotaOfSigfpes) {
  if (!has_children_file()) GTEST_SKIP() << "no /proc/self/task/*/children";
  FakeOracle direct;
  auto recovering = make_isolated_oracle(make_fake, kTimeout, OnSigfpe::recover);
  const Case fine = make_case("add", {{2, 3}, {3}}), fpe = make_case("sub", {{8}, {1}});
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  const pid_t first = the_worker();
  for (long k = 1; k < kSigfpeRecoveries; ++k) EXPECT_EQ(recovering->run(fpe).detail, "SIGFPE");
  EXPECT_EQ(the_worker(), first);
  EXPECT_EQ(recovering->run(fpe).detail, "SIGFPE");
  EXPECT_EQ(the_worker(), -1);  // shut down once it held no case
  EXPECT_EQ(recovering->run(fine), direct.run(fine));
  EXPECT_NE(the_worker(), first);
  EXPECT_NE(the_worker(), -1);
}

TEST(IsolatedOracle, SubmittedCasesAreAnsweredByRunAndAStraySubmitIsDropped) {
  FakeOracle direct;
  auto wrapped = isolated_fake();
  const Case a = make_case("add", {{2, 3}, {3}}), b = make_case("sub", {{2}, {3}});
  EXPECT_EQ(wrapped->run(a), direct.run(a));  // starts the worker
  wrapped->submit(b);
  EXPECT_EQ(wrapped->run(b), direct.run(b));
  wrapped->submit(a);  // then another case is run: a's answer must not become b's
  EXPECT_EQ(wrapped->run(b), direct.run(b));
  EXPECT_EQ(wrapped->run(a), direct.run(a));
  // A crash of a submitted case is that case's outcome; the next one gets a fresh worker.
  const Case segv = make_case("add", {{13}, {1}});
  wrapped->submit(segv);
  EXPECT_EQ(wrapped->run(segv).detail, "SIGSEGV");
  EXPECT_EQ(wrapped->run(a), direct.run(a));
}

// The cases submitted after a crash (no worker left) start a fresh worker at once and reach it together: it
// computes all three (300 ms each) while this process sleeps, so their answers are waiting. Were they sent one by
// one as each is run, the three runs would take 900 ms.
TEST(IsolatedOracle, CasesSubmittedAfterACrashReachAFreshWorkerTogether) {
  auto wrapped = make_isolated_oracle(make_fake, 2s);
  EXPECT_EQ(wrapped->run(make_case("add", {{13}, {1}})).detail, "SIGSEGV");  // no worker now
  const std::vector<Case> slow = {make_case("add", {{50}, {1}}), make_case("add", {{50}, {50}}),
                                  make_case("add", {{50}, {2}})};
  for (const Case& c : slow) wrapped->submit(c);
  std::this_thread::sleep_for(1500ms);
  const auto t0 = std::chrono::steady_clock::now();
  for (const Case& c : slow) EXPECT_EQ(wrapped->run(c), Outcome::success({50}, "int64"));
  EXPECT_LT(ms_since(t0), 450);
}

// After a crash, submit() starts the fresh worker; when that start fails, the failure is the next case's outcome
// and that case does not try to start a worker again (a worker that cannot start costs one try per case).
TEST(IsolatedOracle, AFreshWorkerThatFailsToStartInSubmitIsTriedOncePerCase) {
  const std::string starts = ::testing::TempDir() + "isolated_oracle_starts.log";
  const std::string broken = ::testing::TempDir() + "isolated_oracle_broken";
  std::remove(starts.c_str());
  std::remove(broken.c_str());
  auto wrapped = make_isolated_oracle(
      [starts, broken]() -> std::unique_ptr<Oracle> {  // runs in the worker
        std::ofstream(starts, std::ios::app) << "start\n";
        if (std::ifstream(broken).good()) std::raise(SIGSEGV);
        return make_fake();
      },
      2s);
  auto count_starts = [&] {
    std::ifstream in(starts);
    return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  };
  FakeOracle direct;
  const Case a = make_case("add", {{2, 3}, {3}});
  EXPECT_EQ(wrapped->run(a), direct.run(a));
  EXPECT_EQ(wrapped->run(make_case("add", {{13}, {1}})).detail, "SIGSEGV");
  EXPECT_EQ(count_starts(), 1);
  std::ofstream(broken) << "the factory crashes now\n";
  wrapped->submit(a);  // tries a fresh worker: it dies building the oracle
  EXPECT_EQ(count_starts(), 2);
  const Outcome failed = wrapped->run(a);
  EXPECT_EQ(failed.status, Status::crash);
  EXPECT_EQ(failed.detail, "SIGSEGV");
  EXPECT_EQ(count_starts(), 2) << "the case tried a second start";
  std::remove(broken.c_str());
  EXPECT_EQ(wrapped->run(a), direct.run(a));
  EXPECT_EQ(count_starts(), 3);
}

// The case timeout bounds the library's calls, not the worker's start: with --timeout-ms 1 every start (fork, then
// the factory) timed out and the run was an internal error.
TEST(IsolatedOracle, AWorkerSlowerToStartThanTheCaseTimeoutStillStarts) {
  auto wrapped = make_isolated_oracle(
      []() -> std::unique_ptr<Oracle> {  // runs in the worker
        std::this_thread::sleep_for(50ms);
        return make_fake();
      },
      1ms);
  EXPECT_EQ(wrapped->name(), FakeOracle().name());
}

TEST(IsolatedOracle, AQueueLargerThanBothPipesIsAnsweredInOrder) {
  // Thousands of cases submitted before the first run: the cases fill the pipe to the worker and the answers the
  // pipe back, so the wrapper must read answers while it writes cases.
  FakeOracle direct;
  auto wrapped = isolated_fake();
  wrapped->run(make_case("add", {{1}, {1}}));  // starts the worker
  std::vector<Case> cases;
  for (int64_t i = 0; i < 3000; ++i) cases.push_back(make_case(i % 3 ? "add" : "sub", {{i % 50, 2}, {2}}));
  for (const Case& c : cases) wrapped->submit(c);
  for (const Case& c : cases) ASSERT_EQ(wrapped->run(c), direct.run(c)) << describe(c);
}

TEST(IsolatedOracle, ACrashInAQueueIsItsOwnCaseAndTheRestOfTheQueueIsAnswered) {
  FakeOracle direct;
  auto wrapped = isolated_fake();
  const Case a = make_case("add", {{2, 3}, {3}}), b = make_case("sub", {{2}, {3}}), segv = make_case("add", {{13}, {1}});
  wrapped->run(a);
  for (const Case& c : {a, segv, b, a, segv, a}) wrapped->submit(c);
  EXPECT_EQ(wrapped->run(a), direct.run(a));
  EXPECT_EQ(wrapped->run(segv).detail, "SIGSEGV");
  EXPECT_EQ(wrapped->run(b), direct.run(b));
  EXPECT_EQ(wrapped->run(a), direct.run(a));
  EXPECT_EQ(wrapped->run(segv).detail, "SIGSEGV");
  EXPECT_EQ(wrapped->run(a), direct.run(a));
}

TEST(IsolatedOracle, AWorkerKilledFromOutsideWithCasesQueuedBlamesNoCase) {
  // SIGKILL (the out-of-memory killer, say) while the worker runs the first of three queued cases: that case runs
  // again alone in a fresh worker, and the others follow.
  if (!has_children_file()) GTEST_SKIP() << "no /proc/self/task/*/children";
  FakeOracle direct;
  const Case slow = make_case("add", {{50}, {1}}), a = make_case("add", {{2, 3}, {3}}), b = make_case("sub", {{2}, {3}});
  auto wrapped = make_isolated_oracle(make_fake, 2s);
  wrapped->run(a);
  const pid_t first = the_worker();
  for (const Case& c : {slow, a, b}) wrapped->submit(c);
  std::this_thread::sleep_for(100ms);
  ASSERT_EQ(::kill(first, SIGKILL), 0);
  EXPECT_EQ(wrapped->run(slow), direct.run(slow));
  EXPECT_EQ(wrapped->run(a), direct.run(a));
  EXPECT_EQ(wrapped->run(b), direct.run(b));
  EXPECT_NE(the_worker(), first);
}

TEST(IsolatedOracle, AHangTimesOutAfterAboutTheTimeout) {
  FakeOracle direct;
  auto wrapped = isolated_fake();
  const Case fine = make_case("add", {{4}, {1}});
  EXPECT_EQ(wrapped->run(fine), direct.run(fine));

  const auto t0 = std::chrono::steady_clock::now();
  const Outcome hang = wrapped->run(make_case("add", {{99}, {1}}));
  const long took = ms_since(t0);
  EXPECT_EQ(hang.status, Status::timeout);
  EXPECT_EQ(hang.detail, "no answer within 300 ms");
  EXPECT_GE(took, kTimeout.count());
  EXPECT_LT(took, kTimeout.count() + 700);

  EXPECT_EQ(wrapped->run(fine), direct.run(fine));
}

// An answer that came in time waits in the pipe while this process waits for another oracle (a hanging adapter);
// read after the deadline, it is still the answer, not a timeout.
TEST(IsolatedOracle, AnAnswerWaitingPastTheDeadlineIsStillTheAnswer) {
  FakeOracle direct;
  auto wrapped = isolated_fake();
  const Case fine = make_case("add", {{4}, {1}});
  EXPECT_EQ(wrapped->run(fine), direct.run(fine));  // the worker is up
  wrapped->submit(fine);
  std::this_thread::sleep_for(kTimeout * 2);
  EXPECT_EQ(wrapped->run(fine), direct.run(fine));
}

TEST(IsolatedOracle, ExceptionsOfTheInnerOracleAreRethrownAndTheWorkerStays) {
  auto wrapped = isolated_fake();
  EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
  const pid_t worker = the_worker();
  try {
    wrapped->run(make_case("add", {{7}, {1}}));
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "fake: thrown on purpose");
  }
  EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
  EXPECT_EQ(the_worker(), worker);
}

TEST(IsolatedOracle, InvalidCasesAreRefusedLoudly) {
  auto wrapped = isolated_fake();
  EXPECT_THROW(wrapped->run(make_case("add", {{1}})), std::runtime_error);  // add takes two shapes
  EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
}

TEST(IsolatedOracle, TheWorkerIgnoresSigintAndSurvivesItsLoss) {
  if (!has_children_file()) GTEST_SKIP() << "no /proc/self/task/*/children";
  auto wrapped = isolated_fake();
  const Case fine = make_case("add", {{5}, {1}});
  EXPECT_EQ(wrapped->run(fine).status, Status::ok);
  const pid_t worker = the_worker();
  ASSERT_GT(worker, 0);
  ASSERT_EQ(kill(worker, SIGINT), 0);
  ASSERT_EQ(kill(worker, SIGTERM), 0);
  EXPECT_EQ(wrapped->run(fine).status, Status::ok);
  EXPECT_EQ(the_worker(), worker);

  // Killed from outside between two cases: the next case is not blamed; it gets a fresh worker.
  ASSERT_EQ(kill(worker, SIGKILL), 0);
  for (int i = 0; i < 200 && access(("/proc/" + std::to_string(worker) + "/fd/0").c_str(), F_OK) == 0; ++i)
    std::this_thread::sleep_for(5ms);  // until its fds are gone
  EXPECT_EQ(wrapped->run(fine).status, Status::ok);
  EXPECT_NE(the_worker(), worker);
}

TEST(IsolatedOracle, AThousandCasesInARowLeakNoFd) {
  FakeOracle direct;
  const int before = open_fds();
  {
    auto wrapped = isolated_fake();
    for (int i = 0; i < 1000; ++i) {
      const Case c = make_case(i % 3 ? "add" : "sub", {{i % 5, 1 + i % 4}, {1}});
      ASSERT_EQ(wrapped->run(c), direct.run(c)) << i;
    }
    EXPECT_EQ(open_fds(), before + 2);  // the two parent ends of the worker's pipes
    for (int i = 0; i < 20; ++i) ASSERT_EQ(wrapped->run(make_case("add", {{i % 2 ? 13 : 8}, {1}})).status, Status::crash);
    EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
    EXPECT_EQ(open_fds(), before + 2);
  }
  EXPECT_EQ(open_fds(), before);
}

TEST(IsolatedOracle, DestructionLeavesNoZombie) {
  {
    auto never_started = isolated_fake();
  }
  expect_no_child_left();
  {
    auto wrapped = isolated_fake();
    EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
    EXPECT_EQ(wrapped->run(make_case("add", {{13}, {1}})).status, Status::crash);
    EXPECT_EQ(wrapped->run(make_case("add", {{99}, {1}})).status, Status::timeout);
    EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
    if (has_children_file()) {
      EXPECT_EQ(children().size(), 1u);
    }
  }
  expect_no_child_left();
  {
    // Two wrappers at once: the second worker must not hold the first one's pipes open, or the first wrapper's
    // destructor would wait for an EOF that never comes.
    auto a = isolated_fake();
    auto b = isolated_fake();
    EXPECT_EQ(a->run(make_case("add", {{1}, {1}})).status, Status::ok);
    EXPECT_EQ(b->run(make_case("add", {{2}, {1}})).status, Status::ok);
    const auto t0 = std::chrono::steady_clock::now();
    a.reset();
    EXPECT_LT(ms_since(t0), kTimeout.count() / 2);
    EXPECT_EQ(b->run(make_case("add", {{3}, {1}})).status, Status::ok);
  }
  expect_no_child_left();
}

int g_atexit_fd = -1;
extern "C" void note_atexit() {
  if (g_atexit_fd >= 0) {
    const ssize_t ignored = write(g_atexit_fd, "x", 1);
    (void)ignored;
  }
}

TEST(IsolatedOracle, TheWorkerRunsNoAtexitHandlerOfTheParent) {
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC | O_NONBLOCK), 0);
  g_atexit_fd = p[1];
  std::atexit(note_atexit);
  {
    auto wrapped = isolated_fake();
    EXPECT_EQ(wrapped->run(make_case("add", {{1}, {1}})).status, Status::ok);
  }
  g_atexit_fd = -1;
  close(p[1]);
  char ch;
  EXPECT_EQ(read(p[0], &ch, 1), 0);  // EOF, nothing written
  close(p[0]);
}

TEST(IsolatedOracle, AFactoryThatThrowsIsReported) {
  auto wrapped = make_isolated_oracle([]() -> std::unique_ptr<Oracle> { throw std::runtime_error("no library"); },
                                      kTimeout);
  EXPECT_THROW(wrapped->name(), std::runtime_error);
  EXPECT_THROW(wrapped->run(make_case("add", {{1}, {1}})), std::runtime_error);
  wrapped.reset();
  expect_no_child_left();
}

TEST(IsolatedOracle, AFactoryThatCrashesOrHangsIsContained) {
  {
    auto crashing = make_isolated_oracle(
        []() -> std::unique_ptr<Oracle> {
          std::raise(SIGSEGV);
          return make_fake();
        },
        kTimeout);
    try {
      (void)crashing->name();
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("SIGSEGV"), std::string::npos) << e.what();
    }
    const Outcome o = crashing->run(make_case("add", {{1}, {1}}));
    EXPECT_EQ(o.status, Status::crash);
    EXPECT_EQ(o.detail, "SIGSEGV");
  }
  {
    auto hanging = make_isolated_oracle(
        []() -> std::unique_ptr<Oracle> {
          std::this_thread::sleep_for(10s);
          return make_fake();
        },
        kTimeout);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(hanging->run(make_case("add", {{1}, {1}})).status, Status::timeout);
    EXPECT_LT(ms_since(t0), 1000 + 700) << "a start has the timeout, and at least 1 s";
  }
  expect_no_child_left();
}

TEST(IsolatedOracle, WrapsTheEngineTransparently) {
  auto direct = make_engine_oracle();
  auto wrapped = make_isolated_oracle(make_engine_oracle, 5000ms);
  EXPECT_EQ(wrapped->name(), direct->name());
  EXPECT_EQ(wrapped->version(), direct->version());
  const std::vector<Case> cases = {
      make_case("add", {{2, 3}, {3}}),           make_case("mul", {{2, 1}, {3}}),
      make_case("add", {{2, 3}, {4}}),           make_case("add_", {{1, 3, 1}, {3, 1, 7}}),
      make_case("broadcast_shapes", {{2, 1}, {3}, {4, 1, 1}}),
      make_case("expand", {{3}, {2, -1}}),       make_case("expand", {{3}, {2, 4}}),
      make_case("sum_to", {{4, 2, 3}, {1, 3}}), make_case("sum_to", {{4, 2, 3}, {2, 2}}),
      make_case("matmul", {{2, 3}, {3}}),       make_case("matmul", {{2, 3}, {4, 5}}),
      make_case("div", {{}, {0, 1}})};
  int errors = 0;
  for (const Case& c : cases) {
    const Outcome want = direct->run(c);
    errors += want.status == Status::error;
    EXPECT_EQ(wrapped->run(c), want) << describe(c) << ": " << summarize(want);
  }
  EXPECT_GE(errors, 4);  // the error outcomes, with their messages, pass through too
}

TEST(IsolatedOracle, Int64AndSpecialFloatValuesCrossThePipeExactly) {
  auto direct = make_engine_oracle();
  auto wrapped = make_isolated_oracle(make_engine_oracle, 5000ms);
  Case ints = make_case("add", {{2, 2}, {2}});
  ints.dtypes = {DType::int64, DType::int64};
  ints.layouts = {Layout::transposed, Layout::contiguous};
  ints.values = ValueSpec{0, false, {Values(std::vector<int64_t>{9007199254740993, INT64_MAX, INT64_MIN, 5}),
                                     Values(std::vector<int64_t>{0, -1})}};
  Case floats = make_case("mul", {{4}, {4}});
  floats.dtypes = {DType::float64, DType::float64};
  floats.values = ValueSpec{0, false, {{NAN, INFINITY, -0.0, 0.1}, {1, -1, 1, 3}}};
  floats.requires_grad = {true, false};
  const Outcome exact = wrapped->run(ints);
  EXPECT_EQ(exact.values, Values(std::vector<int64_t>{9007199254740993, INT64_MAX - 1, INT64_MIN, 4}))
      << "through the worker's pipe as integers, not doubles";
  EXPECT_EQ(exact, direct->run(ints));
  const Outcome special = wrapped->run(floats);
  EXPECT_EQ(special, direct->run(floats));
  EXPECT_TRUE(std::signbit(special.values.floats().at(2)));
}

}  // namespace
}  // namespace bc
