#include "properties/shape_gen.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/broadcast.h"
#include "harness/coverage.h"
#include "oracles/engine_oracle.h"
#include "properties/registry.h"

namespace bc {

RC_GTEST_PROP(ShapeGen, ShapesStayWithinTheirBounds, ()) {
  const Shape s = *gen::shape();
  RC_ASSERT(s.size() <= 6u);
  for (int64_t d : s) RC_ASSERT(d >= 0 && d <= 5);
}

RC_GTEST_PROP(ShapeGen, BroadcastableSetsBroadcast, ()) {
  RC_ASSERT(broadcast_shapes(*gen::broadcastable(*rc::gen::inRange(1, 4))).ok());
}

RC_GTEST_PROP(ShapeGen, NearMissesFail, ()) {
  RC_ASSERT(!broadcast_shapes(*gen::near_miss(*rc::gen::inRange(2, 4))).ok());
}

TEST(ShapeGen, SizeShrinksTowardsOneThenSmallSizes) {
  // Find a generated 5 and walk its shrinks: 1 must come first.
  for (uint64_t seed = 0; seed < 200; ++seed) {
    rc::Shrinkable<int64_t> s = gen::size().generator()(rc::Random(seed));
    if (s.value() != 5) continue;
    auto shrinks = s.shrinks();
    auto first = shrinks.next();
    ASSERT_TRUE(first);
    EXPECT_EQ(first->value(), 1);
    return;
  }
  FAIL() << "no size 5 generated in 200 seeds";
}

// Every class a property promises (Property::required) occurs within a modest number of cases. A generator that
// never reaches an interesting case is a bug.
TEST(ShapeGen, EveryPropertyCoversItsRequiredClasses) {
  auto engine = make_engine_oracle();
  Coverage coverage;
  for (const Property& p : properties()) {
    // The op x dtype cells: ValueCasesFillEveryOpDtypeCell; the value classes: ValueClassesAreDrawnPerFamilyAndDtype.
    for (const std::string& cls : p.required)
      if (cls.rfind("cell ", 0) != 0 && cls.rfind("values ", 0) != 0) coverage.required[p.name].push_back(cls);
    for (uint64_t i = 0; i < 600; ++i) {
      const Case c = p.gen(rc::Random(rc::Random::Key{42, i, 0, 0})).value();
      coverage.add(p.name, c);
      coverage.add_outcome(p.name, {"engine", engine->run(c)});
    }
  }
  // Only the engine runs here; the variants' answers are required of a real run (required_classes,
  // tests/properties/registry_test.cpp ValuesRequireEachVariantPathToRun).
  EXPECT_EQ(coverage.missing(), std::vector<std::string>{});
}

// The op x dtype cells ("cell <op> <dtype>", some 300 for values_agree) are too many for 600 cases; a default run
// (2000 per property) and 4000 cases here reach every one.
TEST(ShapeGen, ValueCasesFillEveryOpDtypeCell) {
  const Property& p = *find_property("values_agree");
  Coverage coverage;
  for (const std::string& cls : p.required)
    if (cls.rfind("cell ", 0) == 0) coverage.required[p.name].push_back(cls);
  ASSERT_GE(coverage.required[p.name].size(), 200u);
  for (uint64_t i = 0; i < 4000; ++i) coverage.add(p.name, p.gen(rc::Random(rc::Random::Key{42, i, 0, 0})).value());
  EXPECT_EQ(coverage.missing(), std::vector<std::string>{});
}

// The value classes each property requires per op family and dtype ("values <family> <dtype> <class>") are all
// drawn within the cases of a default run (2000 per property), on other seeds than the run's too.
TEST(ShapeGen, ValueClassesAreDrawnPerFamilyAndDtype) {
  int required = 0;
  for (const Property& p : properties()) {
    Coverage coverage;
    for (const std::string& cls : p.required)
      if (cls.rfind("values ", 0) == 0) coverage.required[p.name].push_back(cls);
    if (coverage.required.empty()) continue;
    required += static_cast<int>(coverage.required[p.name].size());
    for (uint64_t i = 0; i < 2000; ++i) coverage.add(p.name, p.gen(rc::Random(rc::Random::Key{7, i, 0, 0})).value());
    EXPECT_EQ(coverage.missing(), std::vector<std::string>{});
  }
  EXPECT_GE(required, 100);
}

}  // namespace bc
