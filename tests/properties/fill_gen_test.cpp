// The fill generator: its classes read from the case, and what it draws (one operand, fill_'s value, layouts whose
// elements share memory), with the engine's answer agreeing with the "out of range" class.
#include "properties/fill_gen.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "oracles/engine_oracle.h"

namespace bc {
namespace {

Case parse(const std::string& text) { return case_from_json(nlohmann::json::parse(text)); }

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST(FillGen, TagsReadTheValueAgainstSelfsDtype) {
  using gen::fill_tags;
  EXPECT_TRUE(has(fill_tags(parse(R"({"op": "fill_", "shapes": [[3]], "dtypes": ["uint8"], "scalars": {"value": 256}})")),
                  "fill value out of range"));
  EXPECT_FALSE(has(fill_tags(parse(R"({"op": "fill_", "shapes": [[3]], "dtypes": ["int16"], "scalars": {"value": 256}})")),
                   "fill value out of range"));
  EXPECT_FALSE(has(fill_tags(parse(R"({"op": "fill_", "shapes": [[3]], "dtypes": ["bool"], "scalars": {"value": 256}})")),
                   "fill value out of range"));  // bool takes any value
  const auto nan = fill_tags(parse(R"({"op": "fill_", "shapes": [[3]], "dtypes": ["int64"], "scalars": {"value": "nan"}})"));
  EXPECT_TRUE(has(nan, "fill value NaN") && has(nan, "fill value out of range"));
  const auto minus_zero = fill_tags(parse(R"({"op": "fill_", "shapes": [[3]], "scalars": {"value": -0.0}})"));
  EXPECT_TRUE(has(minus_zero, "fill value 0") && has(minus_zero, "fill value -0.0"));
  EXPECT_TRUE(has(fill_tags(parse(R"({"op": "fill_", "shapes": [[3]], "scalars": {"value": "-inf"}})")), "fill value inf"));
  EXPECT_TRUE(fill_tags(parse(R"({"op": "zero_", "shapes": [[3]], "scalars": {"value": "nan"}})")).empty());
  EXPECT_TRUE(has(fill_tags(parse(R"({"op": "zero_", "shapes": [[2, 3]], "layouts": ["expanded"]})")),
                  "fill self shares memory"));
  EXPECT_TRUE(has(fill_tags(parse(R"({"op": "zero_", "shapes": [[2, 3]], "layouts": ["overlapping"]})")),
                  "fill self shares memory"));
  EXPECT_FALSE(has(fill_tags(parse(R"({"op": "zero_", "shapes": [[3, 1]], "layouts": ["overlapping"]})")),
                   "fill self shares memory"));  // one dim of size > 1: no window overlaps, a contiguous self
}

TEST(FillGen, DrawsSelfAloneAndTheEngineRefusesExactlyTheOutOfRangeValues) {
  auto engine = make_engine_oracle();
  int fills = 0, zeros = 0, shared = 0, refused = 0;
  for (uint64_t i = 0; i < 300; ++i) {
    const Case c = gen::fill_case()(rc::Random(rc::Random::Key{5, i, 0, 0})).value();
    ASSERT_EQ(c.shapes.size(), 1u);
    ASSERT_TRUE(c.op == Op::fill_ || c.op == Op::zero_) << to_string(c.op);
    (c.op == Op::fill_ ? fills : zeros) += 1;
    if (c.op == Op::zero_) { EXPECT_FALSE(c.scalars.count("value")); }
    shared += has(c.tags, "fill self shares memory") ? 1 : 0;
    const Outcome o = engine->run(c);
    const bool out_of_range = has(c.tags, "fill value out of range");
    EXPECT_EQ(o.status == Status::error, out_of_range) << to_json(c).dump();
    refused += out_of_range ? 1 : 0;
    EXPECT_TRUE(same_case(case_from_json(to_json(c)), c)) << to_json(c).dump();  // NaN and inf values round-trip
  }
  EXPECT_GT(fills, zeros);
  EXPECT_GT(shared, 50);
  EXPECT_GT(refused, 10);
}

}  // namespace bc
