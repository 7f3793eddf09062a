// Outcomes: which field differs first (status, shape, dtype, error kind; never the message), the one-line
// summary that decides agreement, and the JSON form of results.jsonl.
#include "harness/outcome.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace bc {
namespace {

using nlohmann::json;

Outcome crash(const std::string& signal) {
  Outcome o;
  o.status = Status::crash;
  o.detail = signal;
  return o;
}

Outcome timeout() {
  Outcome o;
  o.status = Status::timeout;
  return o;
}

TEST(Outcome, FactoriesFillTheRightFields) {
  const Outcome ok = Outcome::success({2, 3});
  EXPECT_EQ(ok.status, Status::ok);
  EXPECT_EQ(ok.shape, (Shape{2, 3}));
  EXPECT_EQ(ok.dtype, "float32");
  EXPECT_FALSE(ok.error.has_value());

  const Outcome err = Outcome::failure(ErrorKind::expand, "bad target");
  EXPECT_EQ(err.status, Status::error);
  ASSERT_TRUE(err.error.has_value());
  EXPECT_EQ(err.error->kind, ErrorKind::expand);
  EXPECT_EQ(err.error->message, "bad target");

  const Outcome none = Outcome::unsupported_because("no such op");
  EXPECT_EQ(none.status, Status::unsupported);
  EXPECT_EQ(none.detail, "no such op");
}

TEST(Outcome, WarningsAreAFieldOfTheOutcomeAndRoundTrip) {
  Outcome warned = Outcome::success({3});
  warned.warnings = {"An output with one or more elements was resized"};
  EXPECT_NE(warned, Outcome::success({3}));
  EXPECT_EQ(to_json(warned)["warnings"], json::array({"An output with one or more elements was resized"}));
  EXPECT_EQ(outcome_from_json(to_json(warned)), warned);
  EXPECT_FALSE(to_json(Outcome::success({3})).contains("warnings"));
}

TEST(Outcome, StatusNamesRoundTrip) {
  for (Status s : {Status::ok, Status::error, Status::crash, Status::timeout, Status::unsupported})
    EXPECT_EQ(status_from_string(to_string(s)), s) << to_string(s);
  EXPECT_EQ(std::string(to_string(Status::timeout)), "timeout");
  EXPECT_FALSE(status_from_string("OK").has_value());
  EXPECT_FALSE(status_from_string("").has_value());
}

TEST(FirstDifference, EqualOutcomesHaveNone) {
  EXPECT_EQ(first_difference(Outcome::success({2, 3}), Outcome::success({2, 3})), "");
  EXPECT_EQ(first_difference(Outcome::failure(ErrorKind::broadcast, "a"), Outcome::failure(ErrorKind::broadcast, "a")),
            "");
  EXPECT_EQ(first_difference(timeout(), timeout()), "");
}

TEST(FirstDifference, StatusComesFirst) {
  EXPECT_EQ(first_difference(Outcome::success({2, 3}), Outcome::failure(ErrorKind::broadcast, "x")), "status");
  EXPECT_EQ(first_difference(Outcome::failure(ErrorKind::broadcast, "x"), crash("SIGSEGV")), "status");
  EXPECT_EQ(first_difference(Outcome::success({2}), timeout()), "status");
}

TEST(FirstDifference, ShapeComesBeforeDtype) {
  EXPECT_EQ(first_difference(Outcome::success({2, 3}, "float32"), Outcome::success({3, 2}, "float64")), "shape");
  EXPECT_EQ(first_difference(Outcome::success({2, 3}, "float32"), Outcome::success({2, 3}, "float64")), "dtype");
  EXPECT_EQ(first_difference(Outcome::success({}), Outcome::success({1})), "shape");
}

TEST(FirstDifference, ErrorKindCountsButMessagesNever) {
  EXPECT_EQ(first_difference(Outcome::failure(ErrorKind::broadcast, "same"),
                             Outcome::failure(ErrorKind::inplace_shape, "same")),
            "error kind");
  EXPECT_EQ(first_difference(Outcome::failure(ErrorKind::broadcast, "one text"),
                             Outcome::failure(ErrorKind::broadcast, "another text")),
            "");
}

TEST(FirstDifference, CrashesDifferBySignal) {
  EXPECT_EQ(first_difference(crash("SIGSEGV"), crash("SIGABRT")), "signal");
  EXPECT_EQ(first_difference(crash("SIGSEGV"), crash("SIGSEGV")), "");
}

TEST(Summarize, OneLinePerStatus) {
  EXPECT_EQ(summarize(Outcome::success({2, 3})), "ok [2, 3] float32");
  EXPECT_EQ(summarize(Outcome::success({}, "int64")), "ok [] int64");
  EXPECT_EQ(summarize(Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) ...")), "error broadcast");
  EXPECT_EQ(summarize(crash("SIGSEGV")), "crash SIGSEGV");
  EXPECT_EQ(summarize(timeout()), "timeout");
  EXPECT_EQ(summarize(Outcome::unsupported_because("why")), "unsupported");
}

TEST(Summarize, IgnoresMessages) {
  EXPECT_EQ(summarize(Outcome::failure(ErrorKind::sum_to, "a")), summarize(Outcome::failure(ErrorKind::sum_to, "b")));
  EXPECT_NE(summarize(Outcome::failure(ErrorKind::sum_to, "a")), summarize(Outcome::failure(ErrorKind::expand, "a")));
}

TEST(OutcomeJson, WritesOnlyTheFieldsOfItsStatus) {
  EXPECT_EQ(to_json(Outcome::success({2, 3})), json::parse(R"({"status": "ok", "shape": [2, 3], "dtype": "float32"})"));
  EXPECT_EQ(to_json(Outcome::failure(ErrorKind::matmul_shape, "mat1 and mat2")),
            json::parse(R"({"status": "error", "error": {"kind": "matmul_shape", "message": "mat1 and mat2"}})"));
  EXPECT_EQ(to_json(crash("SIGSEGV")), json::parse(R"({"status": "crash", "detail": "SIGSEGV"})"));
  EXPECT_EQ(to_json(timeout()), json::parse(R"({"status": "timeout"})"));
}

TEST(OutcomeJson, RoundTrips) {
  const std::vector<Outcome> all = {
      Outcome::success({2, 3}),          Outcome::success({}, "float64"),
      Outcome::success({0, 4}),          Outcome::failure(ErrorKind::broadcast, "The size of tensor a (2) must match"),
      Outcome::failure(ErrorKind::other, ""), crash("SIGFPE"),
      timeout(),                         Outcome::unsupported_because("xtensor has no sum_to"),
  };
  for (const Outcome& o : all) {
    SCOPED_TRACE(to_json(o).dump());
    const Outcome back = outcome_from_json(to_json(o));
    EXPECT_EQ(back, o);
    EXPECT_EQ(to_json(back), to_json(o));
    // And through text, as results.jsonl stores it.
    EXPECT_EQ(outcome_from_json(json::parse(to_json(o).dump())), o);
  }
}

TEST(OutcomeJson, Int64ValuesAndFloatSpecialsRoundTripExactly) {
  Outcome ints = Outcome::success({3}, "int64");
  ints.values = Values(std::vector<int64_t>{9007199254740993, INT64_MAX, INT64_MIN});
  Outcome floats = Outcome::success({4}, "float64");
  floats.values = {-0.0, NAN, -INFINITY, 9007199254740992.0};
  floats.grads = {std::nullopt, Grad{{2}, "float32", {-0.0, INFINITY}}};
  for (const Outcome& o : {ints, floats}) {
    const std::string text = to_json(o).dump();
    SCOPED_TRACE(text);
    const Outcome back = outcome_from_json(json::parse(text));
    EXPECT_EQ(back, o);
    EXPECT_EQ(back.values.integers(), o.dtype == "int64");
  }
  EXPECT_NE(to_json(ints).dump().find("[9007199254740993,9223372036854775807,-9223372036854775808]"),
            std::string::npos);
  Outcome off_by_one = ints;
  off_by_one.values.ints()[0] = 9007199254740992;
  EXPECT_NE(off_by_one, ints) << "the two are one double apart: compared as int64, not as doubles";
}

TEST(OutcomeJson, UnknownStatusThrows) {
  EXPECT_THROW(outcome_from_json(json::parse(R"({"status": "exploded"})")), std::runtime_error);
  try {
    outcome_from_json(json::parse(R"({"status": "exploded"})"));
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("exploded"), std::string::npos) << e.what();
  }
}

TEST(OutcomeJson, UnknownErrorKindReadsAsOther) {
  const Outcome o = outcome_from_json(json::parse(R"({"status": "error", "error": {"kind": "novel", "message": "m"}})"));
  ASSERT_TRUE(o.error.has_value());
  EXPECT_EQ(o.error->kind, ErrorKind::other);
  EXPECT_EQ(o.error->message, "m");
}

}  // namespace
}  // namespace bc
