// A selection of named outcomes points at them, in the order they were added; it reads like the Outcomes they
// come from.
#include "harness/outcome_selection.h"

#include <gtest/gtest.h>

#include "harness/judge.h"

namespace bc {
namespace {

TEST(OutcomeSelection, PointsAtTheOutcomesItPicksInTheirOrder) {
  const Outcomes all{{"first", Outcome::success({2})}, {"second", Outcome::failure(ErrorKind::broadcast, "no")},
                     {"third", Outcome::success({3})}};
  OutcomeSelection every;
  for (const auto& named : all) every.add(named);
  ASSERT_EQ(every.size(), 3u);
  EXPECT_EQ(&every[1], &all[1]);  // the outcome itself, not a copy
  OutcomeSelection picked;
  EXPECT_TRUE(picked.empty());
  picked.add(all[2]);
  picked.add(all[0]);
  std::vector<std::string> names;
  for (const auto& [name, o] : picked) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"third", "first"}));
  EXPECT_EQ(picked.find("first"), &all[0].second);
  EXPECT_EQ(picked.find("second"), nullptr);  // in the outcomes, not picked
  EXPECT_EQ(every.find("second"), &all[1].second);
}

}  // namespace
}  // namespace bc
