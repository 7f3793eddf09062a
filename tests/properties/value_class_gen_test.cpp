// Drawing a case's value class: only classes that apply to some operand's dtype, each of them sometimes, plain
// most often, and a case shrinks towards plain.
#include "properties/value_class_gen.h"

#include <map>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck.h>

namespace bc {
namespace {

rc::Gen<Case> with_class(std::vector<DType> dtypes) {
  return rc::gen::exec([dtypes] {
    Case c;
    c.op = Op::mul;
    c.shapes.assign(dtypes.size(), Shape{2});
    c.dtypes = dtypes;
    c.values = ValueSpec{*rc::gen::inRange<uint64_t>(0, 100), false, {}};
    gen::draw_value_class(c, 8);
    return c;
  });
}

ValueClass class_of(const Case& c) { return c.values->value_class.value_or(ValueClass::plain); }

}  // namespace

TEST(ValueClassGen, DrawsEachClassThatAppliesToSomeOperandAndNoOther) {
  for (const std::vector<DType>& dtypes : std::vector<std::vector<DType>>{
           {DType::int8, DType::int8}, {DType::float16, DType::bool_}, {DType::uint8, DType::bfloat16}, {DType::bool_}}) {
    std::map<ValueClass, int> seen;
    for (uint64_t seed = 0; seed < 600; ++seed) ++seen[class_of(with_class(dtypes)(rc::Random(seed)).value())];
    std::set<ValueClass> expected;
    for (ValueClass cls : all_value_classes())
      for (DType t : dtypes)
        if (value_class_applies(cls, t)) expected.insert(cls);
    std::set<ValueClass> drawn;
    for (const auto& [cls, n] : seen) drawn.insert(cls);
    EXPECT_EQ(drawn, expected) << to_string(dtypes[0]);
    for (const auto& [cls, n] : seen)
      if (cls != ValueClass::plain) EXPECT_GT(seen[ValueClass::plain], n) << to_string(cls);
  }
}

TEST(ValueClassGen, ACaseWithAClassShrinksTowardsPlain) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const rc::Shrinkable<Case> s = with_class({DType::float32, DType::float32})(rc::Random(seed));
    if (!s.value().values->value_class) continue;
    bool plain = false;
    auto shrinks = s.shrinks();
    while (auto next = shrinks.next()) plain = plain || !next->value().values->value_class;
    EXPECT_TRUE(plain) << "seed " << seed;
    return;
  }
  ADD_FAILURE() << "no case drew a class";
}

TEST(ValueClassGen, GivenDataKeepsNoClass) {
  Case c;
  c.op = Op::mul;
  c.shapes = {{1}, {1}};
  c.values = ValueSpec{0, false, {{1.0}, {2.0}}};
  gen::draw_value_class(c, 8);
  EXPECT_FALSE(c.values->value_class);
}

}  // namespace bc
