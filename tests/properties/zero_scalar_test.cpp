// Zero scalars: all three forms are drawn (0, 0.0, -0.0, never an integral -0), and a case with one is tagged and
// draws special values more often than one without.
#include "properties/zero_scalar.h"

#include <cmath>
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "properties/shape_gen.h"

namespace bc {

TEST(ZeroScalar, DrawsEachFormOfZeroAndNeverAnIntegralNegativeZero) {
  std::set<std::string> forms;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    const Scalar s = rc::gen::exec([] { return gen::scalar_with_zeros({{1, 2.0}}); })(rc::Random(seed)).value();
    if (s.value != 0) continue;
    if (std::signbit(s.value)) { EXPECT_FALSE(s.integral); }
    forms.insert(std::signbit(s.value) ? "-0.0" : s.integral ? "0" : "0.0");
  }
  EXPECT_EQ(forms, (std::set<std::string>{"-0.0", "0", "0.0"}));
}

TEST(ZeroScalar, TagsZeroScalarsWithSpecialValues) {
  Case c;
  c.op = Op::add;
  c.shapes = {{1}, {1}};
  c.scalars["alpha"] = Scalar{-0.0, false};
  c.values = ValueSpec{1, true, {}};
  EXPECT_TRUE(gen::has_zero_scalar(c));
  gen::tag_zero_scalar(c);
  EXPECT_EQ(c.tags, (std::vector<std::string>{"zero scalar", "zero scalar with special values"}));
  Case plain = c;
  plain.scalars["alpha"] = Scalar{2, true};
  plain.tags.clear();
  EXPECT_FALSE(gen::has_zero_scalar(plain));
  gen::tag_zero_scalar(plain);
  EXPECT_TRUE(plain.tags.empty());
}

TEST(ZeroScalar, SpecialValuesComeMoreOftenWithAZeroScalar) {
  Case zero, plain;
  zero.scalars["alpha"] = Scalar{0, true};
  int with_zero = 0, without = 0;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    with_zero += rc::gen::exec([&] { return gen::draw_special(zero, 8); })(rc::Random(seed)).value();
    without += rc::gen::exec([&] { return gen::draw_special(plain, 8); })(rc::Random(seed)).value();
  }
  EXPECT_GT(with_zero, 300);  // about two in three
  EXPECT_LT(without, 150);    // about one in eight
}

}  // namespace bc
