#include "harness/operands.h"

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/overlap.h"
#include "harness/operand_views.h"

namespace bc {
namespace {

Case parse(const char* text) { return case_from_json(nlohmann::json::parse(text)); }

}  // namespace

TEST(CaseValueFields, ParseAndRoundTrip) {
  const Case c = parse(R"({"op": "add_", "shapes": [[2, 3], [3]], "dtypes": ["int64", "float32"],
                           "layouts": ["transposed", "strided"], "scalars": {"alpha": 2}, "values": {"seed": 9, "special": true}})");
  EXPECT_EQ(c.dtypes, (std::vector<DType>{DType::int64, DType::float32}));
  EXPECT_EQ(c.layouts, (std::vector<Layout>{Layout::transposed, Layout::strided}));
  EXPECT_EQ(scalar_of(c, "alpha").value, 2.0);
  EXPECT_EQ(c.values, (ValueSpec{9, true, {}}));
  EXPECT_EQ(to_json(case_from_json(to_json(c))), to_json(c));
  EXPECT_TRUE(c.extra.empty());
}

TEST(CaseValueFields, BadValuesNameTheValidOnes) {
  auto error = [](const char* text) {
    try {
      parse(text);
    } catch (const CaseError& e) {
      return std::string(e.what());
    }
    return std::string("(parsed)");
  };
  EXPECT_EQ(error(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["half", "float32"]})"),
            "unknown dtype \"half\"; valid dtypes: bool, int64, float32, float64, int8, uint8, int16, int32, float16, "
            "bfloat16");
  EXPECT_EQ(error(R"({"op": "add", "shapes": [[2], [2]], "layouts": ["diagonal", "contiguous"]})"),
            "unknown layout \"diagonal\"; valid layouts: contiguous, transposed, strided, expanded, overlapping");
  EXPECT_EQ(error(R"({"op": "add", "shapes": [[2], [2]], "dtypes": ["int64"]})"),
            "\"dtypes\" names 1 operands, the case has 2");
  EXPECT_EQ(error(R"({"op": "add", "shapes": [[2], [2]], "values": {"seed": -1}})").rfind("\"values\" must be", 0), 0u);
}

TEST(CaseValueFields, AValueClassIsReadWrittenAndDrawn) {
  const Case c = parse(R"({"op": "mul", "shapes": [[3], [3]], "dtypes": ["int8", "float16"],
                           "values": {"seed": 3, "class": "overflow"}})");
  ASSERT_TRUE(c.values);
  EXPECT_EQ(c.values->value_class, ValueClass::overflow);
  EXPECT_EQ(to_json(c)["values"], nlohmann::json::parse(R"({"seed": 3, "class": "overflow"})"));
  EXPECT_EQ(case_from_json(to_json(c)).values, c.values);
  // Each operand draws the class in its own dtype, from its own seed: int8's squares overflow, float16's too.
  const std::vector<OperandPlan> p = plan_operands(c);
  for (int64_t x : p[0].base_values.ints()) EXPECT_GT(x * x, 127);
  for (double x : p[1].base_values.floats()) EXPECT_GT(x * x, 65504.0);
  // Without a class: the plain values, exactly as before (no "class" written back).
  const Case plain = parse(R"({"op": "mul", "shapes": [[3], [3]], "values": {"seed": 3}})");
  EXPECT_FALSE(to_json(plain)["values"].contains("class"));
  EXPECT_NE(plan_operands(plain)[0].base_values, p[0].base_values);
  try {
    parse(R"({"op": "mul", "shapes": [[3], [3]], "values": {"seed": 3, "class": "huge"}})");
    ADD_FAILURE() << "parsed";
  } catch (const CaseError& e) {
    EXPECT_EQ(std::string(e.what()), "\"values\" \"class\" must be one of " + value_class_names());
  }
}

TEST(Operands, EachLayoutIsTheRealViewOverAFreshBase) {
  const Case c = parse(R"({"op": "where", "shapes": [[2, 3], [2, 3], [2, 3]],
                           "layouts": ["transposed", "strided", "expanded"], "values": {"seed": 1}})");
  const std::vector<OperandPlan> p = plan_operands(c);
  EXPECT_EQ(p[0].base_shape, (Shape{3, 2}));
  EXPECT_EQ(p[0].strides, (Shape{1, 2}));
  EXPECT_EQ(p[1].base_shape, (Shape{2, 6}));
  EXPECT_EQ(p[1].strides, (Shape{6, 2}));
  EXPECT_EQ(p[2].base_shape, (Shape{1, 3}));
  EXPECT_EQ(p[2].strides, (Shape{0, 1}));
  EXPECT_TRUE(has_internal_overlap(View{p[2].offset, p[2].shape, p[2].strides}));
  EXPECT_EQ(view_values(p[0], p[0].base_values).size(), 6u);
}

TEST(Operands, LayoutsThatCannotApplyFallBackToContiguous) {
  const std::vector<OperandPlan> p = plan_operands(parse(
      R"({"op": "add_", "shapes": [[3], [4]], "layouts": ["transposed", "overlapping"]})"));
  EXPECT_EQ(p[0].layout, Layout::contiguous);  // rank 1 cannot be transposed
  EXPECT_EQ(p[1].layout, Layout::contiguous);  // 4 elements do not fit in the first operand's 3
  const std::vector<OperandPlan> q = plan_operands(parse(
      R"({"op": "add_", "shapes": [[2, 3], [3]], "layouts": ["contiguous", "overlapping"]})"));
  EXPECT_EQ(q[1].layout, Layout::overlapping);
  EXPECT_EQ(q[1].views_operand, 0);
}

// The first operand has no earlier one to view: overlapping is a sliding window over its own storage (fill_'s
// overlapping self), [2, 3] with strides [1, 1] over 4 elements; with fewer than two dims of size > 1 nothing would
// overlap, and it falls back to contiguous.
TEST(Operands, AnOverlappingFirstOperandIsAWindowOverItsOwnStorage) {
  const std::vector<OperandPlan> p =
      plan_operands(parse(R"({"op": "fill_", "shapes": [[2, 3]], "layouts": ["overlapping"], "values": {"seed": 1}})"));
  EXPECT_EQ(p[0].layout, Layout::overlapping);
  EXPECT_EQ(p[0].views_operand, -1);
  EXPECT_EQ(p[0].base_shape, (Shape{4}));
  EXPECT_EQ(p[0].strides, (Shape{1, 1}));
  EXPECT_EQ(p[0].base_values.size(), 4u);
  EXPECT_TRUE(has_internal_overlap(View{p[0].offset, p[0].shape, p[0].strides}));
  for (const char* shape : {"[3, 1]", "[4]", "[]", "[0, 2]"})
    EXPECT_EQ(plan_operands(parse((std::string(R"({"op": "zero_", "shapes": [)") + shape +
                                   R"(], "layouts": ["overlapping"]})").c_str()))[0].layout,
              Layout::contiguous) << shape;
}

// plan_views is plan_operands without the values: every other field alike, on every layout and its fallbacks.
TEST(Operands, ViewsArePlansWithoutTheirValues) {
  for (const char* text :
       {R"({"op": "where", "shapes": [[2, 3], [2, 3], [2, 3]], "layouts": ["transposed", "strided", "expanded"],
            "values": {"seed": 1}})",
        R"({"op": "add_", "shapes": [[2, 3], [3]], "layouts": ["contiguous", "overlapping"], "values": {"seed": 2}})",
        R"({"op": "add_", "shapes": [[3], [4]], "layouts": ["transposed", "overlapping"]})",
        R"({"op": "mul", "shapes": [[2], [1]], "dtypes": ["int64", "int64"], "values": {"data": [[1, 2], [3]]}})"}) {
    const Case c = parse(text);
    std::vector<OperandPlan> full = plan_operands(c);
    const std::vector<OperandPlan> views = plan_views(c);
    ASSERT_EQ(views.size(), full.size()) << text;
    for (size_t k = 0; k < full.size(); ++k) {
      EXPECT_EQ(views[k].base_values.size(), 0u) << text;
      EXPECT_EQ(views[k].layout, full[k].layout) << text;
      EXPECT_EQ(views[k].dtype, full[k].dtype) << text;
      EXPECT_EQ(views[k].shape, full[k].shape) << text;
      EXPECT_EQ(views[k].base_shape, full[k].base_shape) << text;
      EXPECT_EQ(views[k].strides, full[k].strides) << text;
      EXPECT_EQ(views[k].offset, full[k].offset) << text;
      EXPECT_EQ(views[k].views_operand, full[k].views_operand) << text;
    }
  }
}

TEST(Operands, ValuesAreDeterministicAndIncludeNegativesAndZero) {
  const Case c = parse(R"({"op": "add", "shapes": [[64], [64]], "dtypes": ["int64", "float32"], "values": {"seed": 4}})");
  const auto a = plan_operands(c), b = plan_operands(c);
  EXPECT_EQ(a[0].base_values, b[0].base_values);
  EXPECT_NE(a[0].base_values, a[1].base_values);
  bool negative = false, zero = false;
  ASSERT_TRUE(a[0].base_values.integers()) << "int64 values are held as integers";
  for (int64_t v : a[0].base_values.ints()) {
    negative = negative || v < 0;
    zero = zero || v == 0;
  }
  EXPECT_TRUE(negative && zero);
  bool special = false;
  const Case s = parse(R"({"op": "add", "shapes": [[64], [64]], "values": {"seed": 4, "special": true}})");
  const std::vector<OperandPlan> with_special = plan_operands(s);
  for (double v : with_special[0].base_values.floats())
    special = special || std::isnan(v) || std::isinf(v) || (std::signbit(v) && v == 0);
  EXPECT_TRUE(special);
  // The narrow integers' specials are their extremes, where sums wrap (int8: -128 and 127; uint8: 0 and 255).
  const std::vector<OperandPlan> narrow = plan_operands(parse(
      R"({"op": "add", "shapes": [[64], [64]], "dtypes": ["int8", "uint8"], "values": {"seed": 4, "special": true}})"));
  bool int8_top = false, uint8_top = false;
  for (int64_t v : narrow[0].base_values.ints()) int8_top = int8_top || v == 127;
  for (int64_t v : narrow[1].base_values.ints()) uint8_top = uint8_top || v == 255;
  EXPECT_TRUE(int8_top && uint8_top);
  for (int64_t v : narrow[1].base_values.ints()) EXPECT_GE(v, 0);
  const std::vector<OperandPlan> without = plan_operands(parse(R"({"op": "add", "shapes": [[5], [5]]})"));
  EXPECT_EQ(without[0].base_values, Values(std::vector<double>(5, 0.0)));
}

TEST(Operands, GivenValuesReachTheBaseExactlyInTheOperandsDtype) {
  const Case c = parse(R"({"op": "addcmul", "shapes": [[2, 2], [3], [2]], "dtypes": ["int64", "float32", "bool"],
                           "layouts": ["transposed", "contiguous", "contiguous"],
                           "values": {"data": [[9007199254740993, 9223372036854775807, -9223372036854775808, 1],
                                               [16777217, 0.1, -0.0], [2, 0]]}})");
  const std::vector<OperandPlan> p = plan_operands(c);
  // The transposed base holds the values with the last two dims swapped; the view gives them back in order.
  EXPECT_EQ(p[0].base_values, Values(std::vector<int64_t>{9007199254740993, -9223372036854775807 - 1,
                                                          9223372036854775807, 1}));
  EXPECT_EQ(view_values(p[0], p[0].base_values), c.values->data[0]);
  EXPECT_EQ(p[1].base_values, Values({16777216.0, static_cast<double>(0.1f), -0.0})) << "rounded to float32";
  EXPECT_EQ(p[2].base_values, Values(std::vector<int64_t>{1, 0})) << "bool: not zero";
}

}  // namespace bc
