// Comparing a minimal case's outcomes over runs: a crash that does not recur is flaky, numbers that change are
// nondeterministic, and outcomes that are the same every run (a crash every time included) reproduce.
#include "harness/reproduction.h"

#include <gtest/gtest.h>

namespace bc {
namespace {

Outcome crash() {
  Outcome o;
  o.status = Status::crash;
  o.detail = "SIGABRT";
  return o;
}

Outcome ok(double value) {
  Outcome o = Outcome::success({1});
  o.values = Values({value});
  return o;
}

TEST(Reproduction, TheSameEveryRunReproduces) {
  const Outcomes run{{"engine", ok(1)}, {"adapter", crash()}};
  const Reproduction r = compare_runs({run, run, run, run});
  EXPECT_TRUE(r.stable());
  EXPECT_EQ(r.runs, 4);
  EXPECT_EQ(describe(r), "reproduced in 4 of 4 runs");
  EXPECT_EQ(reproduction_from_json(to_json(r)), r);
}

TEST(Reproduction, ACrashThatDoesNotRecurIsFlaky) {
  const Outcomes first{{"engine", ok(1)}, {"adapter", crash()}};
  const Outcomes later{{"engine", ok(1)}, {"adapter", ok(1)}};
  const Reproduction r = compare_runs({first, later, later, later});
  EXPECT_EQ(r.kind, "flaky");
  EXPECT_EQ(r.details, std::vector<std::string>{"adapter crashed in 1 of 4 runs"});
  EXPECT_EQ(describe(r), "flaky: adapter crashed in 1 of 4 runs");
  EXPECT_EQ(reproduction_from_json(to_json(r)), r);
}

TEST(Reproduction, ATimeoutThatDoesNotRecurIsFlaky) {
  Outcome timeout;
  timeout.status = Status::timeout;
  const Reproduction r = compare_runs({{{"torch", ok(1)}}, {{"torch", timeout}}, {{"torch", ok(1)}}});
  EXPECT_EQ(r.kind, "flaky");
  EXPECT_EQ(r.details, std::vector<std::string>{"torch timed out in 1 of 3 runs"});
}

TEST(Reproduction, NumbersThatChangeAreNondeterministic) {
  const Reproduction r = compare_runs({{{"engine", ok(1)}, {"torch", ok(NAN)}},
                                       {{"engine", ok(1)}, {"torch", ok(2)}},
                                       {{"engine", ok(1)}, {"torch", ok(NAN)}}});
  EXPECT_EQ(r.kind, "nondeterministic");
  EXPECT_EQ(r.details, std::vector<std::string>{"torch gave 2 different results in 3 runs"});
}

TEST(Reproduction, NaNEqualsNaNAndNegativeZeroIsNotZero) {
  EXPECT_TRUE(compare_runs({{{"torch", ok(NAN)}}, {{"torch", ok(NAN)}}}).stable());
  EXPECT_EQ(compare_runs({{{"torch", ok(0.0)}}, {{"torch", ok(-0.0)}}}).kind, "nondeterministic");
}

TEST(Reproduction, FlakyWinsOverNondeterministic) {
  const Reproduction r = compare_runs({{{"a", crash()}, {"b", ok(1)}}, {{"a", ok(1)}, {"b", ok(2)}}});
  EXPECT_EQ(r.kind, "flaky");
  EXPECT_EQ(r.details, (std::vector<std::string>{"a crashed in 1 of 2 runs", "b gave 2 different results in 2 runs"}));
}

TEST(Reproduction, NeverRerunDescribesNothing) {
  EXPECT_EQ(describe(Reproduction{}), "");
  EXPECT_TRUE(Reproduction{}.stable());
}

}  // namespace
}  // namespace bc
