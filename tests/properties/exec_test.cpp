// bc::gen::exec draws the same case with or without RapidCheck's recipe, for every registered property: a run
// draws values only and rebuilds the shrink tree of a finding from the same seed, so the two must never differ.
#include "properties/exec.h"

#include <gtest/gtest.h>

#include "properties/registry.h"

namespace bc {
namespace {

TEST(Exec, ValuesOnlyDrawsTheCaseTheRecipeDraws) {
  long compared = 0;
  for (const Property& p : properties())
    for (uint64_t seed = 0; seed < 150; ++seed)
      for (int size : {0, 7, rc::kNominalSize}) {
        const rc::Random random(seed * 7919 + static_cast<uint64_t>(size));
        const Case recorded = p.gen(random, size).value();
        Case drawn;
        {
          gen::ValuesOnly values_only;
          drawn = p.gen(random, size).value();
        }
        ASSERT_TRUE(same_case(recorded, drawn)) << p.name << " seed " << seed << " size " << size << ": "
                                               << to_json(recorded).dump() << " vs " << to_json(drawn).dump();
        ++compared;
      }
  EXPECT_GE(compared, 150L * 3 * 10);
}

// The recipe is what shrinks: values only, a generated case has no shrinks; with it, a case that is not already
// the smallest has some.
TEST(Exec, OnlyTheRecipeShrinks) {
  const Property* p = find_property("elementwise_agree");
  ASSERT_NE(p, nullptr);
  bool some_shrink = false;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const rc::Random random(seed);
    some_shrink = some_shrink || static_cast<bool>(p->gen(random, rc::kNominalSize).shrinks().next());
    gen::ValuesOnly values_only;
    EXPECT_FALSE(static_cast<bool>(p->gen(random, rc::kNominalSize).shrinks().next())) << "seed " << seed;
  }
  EXPECT_TRUE(some_shrink);
}

TEST(Exec, ValuesOnlyEndsWithItsScopeAndNests) {
  EXPECT_FALSE(gen::values_only());
  {
    gen::ValuesOnly outer;
    {
      gen::ValuesOnly inner;
      EXPECT_TRUE(gen::values_only());
    }
    EXPECT_TRUE(gen::values_only());
  }
  EXPECT_FALSE(gen::values_only());
}

}  // namespace
}  // namespace bc
