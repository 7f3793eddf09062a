// A finding's signature from its parts: the field order and separators, the odd ones out and what closes it only
// when named, the two spellings of the odd-ones list, the family a case names, and the outcome classes dropped.
#include "harness/signature.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace bc {
namespace {

TEST(Signature, WithoutOddOnesEndsWithTheDifference) {
  EXPECT_EQ(make_signature({"broadcast_algebra", "broadcast_shapes", "algebra: commutative"}),
            "broadcast_algebra | broadcast_shapes | algebra: commutative");
  EXPECT_EQ(make_signature({"adapter_fault", "mylib", "crash"}), "adapter_fault | mylib | crash");
}

TEST(Signature, OddOnesAndTheClosingFollowTheDifference) {
  EXPECT_EQ(make_signature({"corpus", "elementwise", "status", std::vector<std::string>{"xtensor", "numpy"},
                            "engine=ok torch=ok xtensor=error:broadcast"}),
            "corpus | elementwise | status | odd: xtensor,numpy | engine=ok torch=ok xtensor=error:broadcast");
  EXPECT_EQ(make_signature({"addc_equivalence", "inplace", "equivalence: status, status",
                            std::vector<std::string>{"engine", "torch"}, "addcmul_", ", "}),
            "addc_equivalence | inplace | equivalence: status, status | odd: engine, torch | addcmul_");
  // Named but empty odd ones and closing still take their places.
  EXPECT_EQ(make_signature({"p", "f", "d", std::vector<std::string>{}, ""}), "p | f | d | odd:  | ");
}

TEST(Signature, TheFamilyOfACaseIsItsOps) {
  const Case add = case_from_json(nlohmann::json::parse(R"({"op": "add", "shapes": [[2], [1]]})"));
  EXPECT_EQ(family_of(add), "elementwise");
  const Case inplace = case_from_json(nlohmann::json::parse(R"({"op": "addcmul_", "shapes": [[2], [1], [1]]})"));
  EXPECT_EQ(family_of(inplace), "inplace");
}

TEST(Signature, WithoutOutcomesDropsOnlyAListOfOutcomeClasses) {
  EXPECT_EQ(signature_without_outcomes("p | elementwise | status | odd: xtensor | engine=ok torch=error:broadcast"),
            "p | elementwise | status | odd: xtensor");
  for (const std::string other : {"p | elementwise | nondeterministic | odd: torch | add", "p | x | a=b | c", "a=b",
                                  "p | x | =b", "p | x | a="})
    EXPECT_EQ(signature_without_outcomes(other), other);
}

}  // namespace
}  // namespace bc
