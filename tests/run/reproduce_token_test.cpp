// Reproduce tokens: their text, the generated case an empty path gives (the same every time), a path step giving a
// shrink of it, and malformed tokens refused with a CaseError that names the problem.
#include "run/reproduce_token.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "properties/case_shrinks.h"
#include "run/shrink.h"

namespace bc {

TEST(ReproduceToken, TextFormat) {
  EXPECT_EQ(reproduce_token(7, "elementwise_agree", 3, {}), "bc1/7/elementwise_agree/3/-");
  EXPECT_EQ(reproduce_token(7, "elementwise_agree", 3, {0, 2, 1}), "bc1/7/elementwise_agree/3/0.2.1");
  EXPECT_EQ(reproduce_token(18446744073709551615ull, "matmul_agree", 0, {12}),
            "bc1/18446744073709551615/matmul_agree/0/12");
  EXPECT_EQ(reproduce_token(7, "elementwise_agree", 3, {}, {4, 0}), "bc1/7/elementwise_agree/3/-/4.0");
  EXPECT_EQ(reproduce_token(7, "elementwise_agree", 3, {1}, {}), "bc1/7/elementwise_agree/3/1");
}

// CASEPATH goes on from where PATH stops, through the shrinks of any case (run/shrink.h, shrink_fully).
TEST(ReproduceToken, ACasePathFollowsTheShrinksOfAnyCase) {
  long index = 0;
  Case start;
  for (; index < 50; ++index) {
    start = case_from_reproduce_token(reproduce_token(7, "elementwise_agree", index, {}));
    if (start.shapes.at(0).size() >= 2) break;
  }
  ASSERT_LT(index, 50) << "no generated case of rank 2 or more";
  const Case got = case_from_reproduce_token(reproduce_token(7, "elementwise_agree", index, {}, {0}));
  const std::optional<Case> expected = follow_shrink_path(shrinkable_case(start), {0});
  ASSERT_TRUE(expected.has_value());
  EXPECT_EQ(to_json(got), to_json(*expected));
  EXPECT_EQ(got.shapes.at(0).size() + 1, start.shapes.at(0).size()) << "the first shrink of any case drops a dim";
}

TEST(ReproduceToken, EmptyPathGivesAGeneratedCaseDeterministically) {
  std::set<std::string> seen;
  for (long index = 0; index < 20; ++index) {
    const std::string token = reproduce_token(7, "elementwise_agree", index, {});
    const Case c = case_from_reproduce_token(token);
    // elementwise_agree draws the out-of-place binary ops of the op table.
    EXPECT_TRUE(entry(c.op).binary && !is_inplace(c.op)) << token << ": " << to_string(c.op);
    EXPECT_EQ(c.shapes.size(), 2u) << token;
    EXPECT_EQ(to_json(case_from_json(to_json(c))), to_json(c)) << token;
    const Case again = case_from_reproduce_token(token);
    EXPECT_EQ(to_json(again), to_json(c)) << token;
    seen.insert(canonical_form(c));
  }
  EXPECT_GT(seen.size(), 1u) << "every index gave the same case";
}

TEST(ReproduceToken, APathStepGivesAShrinkOfTheGeneratedCase) {
  // The first generated case that is not add on small shapes, so that it has somewhere to shrink to.
  long index = 0;
  Case start;
  for (; index < 50; ++index) {
    start = case_from_reproduce_token(reproduce_token(7, "elementwise_agree", index, {}));
    if (start.op != Op::add && start.shapes.at(0).size() + start.shapes.at(1).size() >= 3) break;
  }
  ASSERT_LT(index, 50) << "no generated case with room to shrink";
  const Case shrunk = case_from_reproduce_token(reproduce_token(7, "elementwise_agree", index, {0}));
  EXPECT_NE(canonical_form(shrunk), canonical_form(start)) << describe(start);
  EXPECT_EQ(to_json(case_from_reproduce_token(reproduce_token(7, "elementwise_agree", index, {0}))), to_json(shrunk));
  EXPECT_EQ(to_json(case_from_json(to_json(shrunk))), to_json(shrunk));
}

TEST(ReproduceToken, MalformedTokensThrowCaseErrorNamingTheProblem) {
  auto message_of = [](const std::string& token) -> std::string {
    try {
      case_from_reproduce_token(token);
    } catch (const CaseError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("wrong exception type: ") + e.what();
    }
    return "no exception";
  };
  std::string m = message_of("bc2/1/x/1/-");
  EXPECT_NE(m.find("bc1/SEED/PROPERTY/INDEX/PATH"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/1");
  EXPECT_NE(m.find("bc1/SEED/PROPERTY/INDEX/PATH"), std::string::npos) << m;
  m = message_of("bc1/1/nope/1/-");
  EXPECT_NE(m.find("unknown property \"nope\""), std::string::npos) << m;
  EXPECT_NE(m.find("elementwise_agree"), std::string::npos) << "lists the valid properties: " << m;
  m = message_of("bc1/x/elementwise_agree/1/-");
  EXPECT_NE(m.find("do not parse"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/y/-");
  EXPECT_NE(m.find("do not parse"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/1/0.z");
  EXPECT_NE(m.find("do not parse"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/1/-/q");
  EXPECT_NE(m.find("do not parse"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/1/-/0/0");
  EXPECT_NE(m.find("bc1/SEED/PROPERTY/INDEX/PATH[/CASEPATH]"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/0/-/999");
  EXPECT_NE(m.find("does not exist"), std::string::npos) << m;
  m = message_of("bc1/1/elementwise_agree/0/999");
  EXPECT_NE(m.find("does not exist"), std::string::npos) << m;
}

}  // namespace bc
