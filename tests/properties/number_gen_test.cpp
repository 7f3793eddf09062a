// The number generator: every case it draws is a valid corpus line that round-trips exactly, has a number where
// the op takes one, and between them they draw every class the numbers_agree property requires.
#include "properties/number_gen.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "properties/registry.h"

namespace bc {
namespace {

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(NumberGen, DrawsValidCasesWithANumberWhereTheOpTakesOneAndEveryRequiredClass) {
  std::set<std::string> seen;
  for (uint64_t i = 0; i < 600; ++i) {
    const Case c = gen::number_case()(rc::Random(rc::Random::Key{7, i, 0, 0})).value();
    ASSERT_TRUE(has_numbers(c)) << to_json(c).dump();
    for (size_t k = 0; k < c.shapes.size(); ++k)
      if (number_of(c, k)) {
        EXPECT_TRUE(may_be_number(c.op, k)) << to_json(c).dump();
        EXPECT_FALSE(k < c.requires_grad.size() && c.requires_grad[k]) << "a number requires no grad: " << to_json(c).dump();
      }
    const Case again = case_from_json(nlohmann::json::parse(to_json(c).dump()));  // a valid corpus line
    EXPECT_TRUE(same_case(again, c)) << to_json(c).dump();
    seen.insert(c.tags.begin(), c.tags.end());
  }
  for (const std::string& cls : find_property("numbers_agree")->required)
    if (cls.rfind("engine ", 0) != 0) EXPECT_TRUE(seen.count(cls)) << cls;
}

TEST(NumberGen, ANumberShrinksTowardsTheInt1) {
  const rc::Shrinkable<Number> n = gen::number()(rc::Random(rc::Random::Key{3, 9, 0, 0}));
  Number last = n.value();
  rc::Seq<rc::Shrinkable<Number>> shrinks = n.shrinks();
  while (auto first = shrinks.next()) {  // the first shrink each time, as far as it goes
    last = first->value();
    shrinks = first->shrinks();
  }
  EXPECT_EQ(last, Number::of_int(1));
}

TEST(NumberGen, TagsReadTheCase) {
  const auto tags = [](const char* text) { return gen::number_tags(case_from_json(nlohmann::json::parse(text))); };
  const auto t = tags(R"({"op": "where", "shapes": [[2], {"number": "nan"}, {"number": -0.0}]})");
  EXPECT_TRUE(has(t, "number float") && has(t, "number non-finite") && has(t, "number -0.0") && has(t, "numbers only"));
  const auto u = tags(R"({"op": "add", "shapes": [[], {"number": 300}], "dtypes": ["int8", "int64"]})");
  EXPECT_TRUE(has(u, "number int") && has(u, "number beyond the dtype") && has(u, "number with a 0-d tensor"));
  EXPECT_FALSE(has(u, "number above the category"));
  EXPECT_TRUE(has(tags(R"({"op": "mul", "shapes": [[3], {"number": true}], "dtypes": ["bool", "bool"]})"), "number bool"));
}

}  // namespace
}  // namespace bc
