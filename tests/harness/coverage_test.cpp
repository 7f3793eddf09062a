// Coverage classes of a case, missing required classes, merging shards, and the JSON of summary.json.
#include "harness/coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace bc {
namespace {

using nlohmann::json;
using Names = std::vector<std::string>;

Case make_case(const char* text) { return case_from_json(json::parse(text)); }

bool has(const Names& classes, const std::string& cls) {
  return std::find(classes.begin(), classes.end(), cls) != classes.end();
}

TEST(CoverageClasses, PlainPairOfEqualShapes) {
  EXPECT_EQ(coverage_classes(make_case(R"({"op": "add", "shapes": [[2,3],[2,3]]})")),
            (Names{"max rank 2", "2 operands"}));
}

TEST(CoverageClasses, RankZeroOperand) {
  const Names classes = coverage_classes(make_case(R"({"op": "add", "shapes": [[],[4]]})"));
  EXPECT_TRUE(has(classes, "rank-0 operand"));
  EXPECT_TRUE(has(classes, "max rank 1"));
  EXPECT_FALSE(has(classes, "size-0 dim"));
  EXPECT_EQ(coverage_classes(make_case(R"({"op": "broadcast_shapes", "shapes": [[]]})")),
            (Names{"max rank 0", "rank-0 operand", "1 operand"}));
}

TEST(CoverageClasses, SizeZeroDim) {
  const Names classes = coverage_classes(make_case(R"({"op": "add", "shapes": [[2,0],[2,0]]})"));
  EXPECT_TRUE(has(classes, "size-0 dim"));
  EXPECT_FALSE(has(classes, "rank-0 operand"));
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[0],[1]]})")), "size-0 dim"));
  EXPECT_FALSE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[2],[2]]})")), "size-0 dim"));
}

TEST(CoverageClasses, SingletonAgainstNonSingleton) {
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[2,1],[2,3]]})")),
                  "singleton vs non-singleton"));
  // Either operand may hold the 1, and it is compared right-aligned.
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[5,3],[1,3]]})")),
                  "singleton vs non-singleton"));
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[4,2,3],[1,3]]})")),
                  "singleton vs non-singleton"));
  // Both 1 is not a stretch; a missing leading dimension is not a size-1 one.
  EXPECT_FALSE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[1,3],[1,3]]})")),
                   "singleton vs non-singleton"));
  EXPECT_FALSE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[2,3],[3]]})")),
                   "singleton vs non-singleton"));
  // Among three operands, any pair will do.
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "broadcast_shapes", "shapes": [[3],[3],[1]]})")),
                  "singleton vs non-singleton"));
}

TEST(CoverageClasses, OperandCount) {
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "broadcast_shapes", "shapes": [[3]]})")), "1 operand"));
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[3],[3]]})")), "2 operands"));
  EXPECT_TRUE(
      has(coverage_classes(make_case(R"({"op": "broadcast_shapes", "shapes": [[3],[3],[3],[3]]})")), "4 operands"));
}

TEST(CoverageClasses, MaxRankIsTheLargest) {
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add", "shapes": [[2],[1,1,1,2]]})")), "max rank 4"));
}

TEST(CoverageClasses, ValueCasesCountOpDtypeLayoutCells) {
  const Names classes = coverage_classes(make_case(
      R"({"op": "add_", "shapes": [[2, 3], [3]], "dtypes": ["float32", "int64"], "layouts": ["transposed", "transposed"],
          "values": {"seed": 1}})"));
  // The rank-1 operand cannot be transposed: its cell says what was built.
  EXPECT_NE(std::find(classes.begin(), classes.end(), "cell add_ float32 transposed"), classes.end());
  EXPECT_NE(std::find(classes.begin(), classes.end(), "cell add_ int64 contiguous"), classes.end());
  const Names shape_only = coverage_classes(make_case(R"({"op": "add", "shapes": [[2],[2]]})"));
  for (const std::string& c : shape_only) EXPECT_NE(c.rfind("cell ", 0), 0u) << c;
}

TEST(CoverageClasses, ValueCasesCountTheirOp) {
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "sqrt", "shapes": [[3]], "values": {"seed": 1}})")), "op sqrt"));
  EXPECT_TRUE(has(coverage_classes(make_case(R"({"op": "add_", "shapes": [[3], [3]], "values": {"seed": 1}})")),
                  "op add_"));
  for (const std::string& c : coverage_classes(make_case(R"({"op": "sqrt", "shapes": [[3]]})")))
    EXPECT_NE(c.rfind("op ", 0), 0u) << c;  // a shape-level case has no op class
}

// Coverage::add reuses one list of names from case to case: a case with few classes after one with many counts
// its own classes only.
TEST(Coverage, EachCaseCountsItsOwnClassesOnly) {
  const Case many = make_case(
      R"({"op": "add_", "shapes": [[2, 3], [3]], "dtypes": ["float32", "int64"], "layouts": ["transposed", "strided"],
          "values": {"seed": 1}, "tags": ["near_miss", "batch"]})");
  const Case few = make_case(R"({"op": "sqrt", "shapes": [[]]})");
  Coverage coverage;
  coverage.add("p", many);
  coverage.add("p", few);
  coverage.add("p", few);
  std::map<std::string, long> expected;
  for (const std::string& cls : coverage_classes(many)) ++expected[cls];
  for (const std::string& cls : coverage_classes(few)) expected[cls] += 2;
  ASSERT_GT(coverage_classes(many).size(), coverage_classes(few).size() + 3);
  const std::map<std::string, long> counted(coverage.counts.at("p").begin(), coverage.counts.at("p").end());
  EXPECT_EQ(counted, expected);
}

TEST(CoverageClasses, TagsComeLast) {
  const Names classes =
      coverage_classes(make_case(R"({"op": "add", "shapes": [[2],[2]], "tags": ["near_miss", "batch"]})"));
  ASSERT_GE(classes.size(), 2u);
  EXPECT_EQ(classes[classes.size() - 2], "near_miss");
  EXPECT_EQ(classes.back(), "batch");
}

TEST(Coverage, AddCountsEveryClassOfACase) {
  Coverage cov;
  cov.add("elementwise_agree", make_case(R"({"op": "add", "shapes": [[],[2,1]]})"));
  cov.add("elementwise_agree", make_case(R"({"op": "add", "shapes": [[2],[2,1]]})"));
  const auto& counts = cov.counts.at("elementwise_agree");
  EXPECT_EQ(counts.at("max rank 2"), 2);
  EXPECT_EQ(counts.at("2 operands"), 2);
  EXPECT_EQ(counts.at("rank-0 operand"), 1);
  EXPECT_EQ(counts.at("singleton vs non-singleton"), 1);
  EXPECT_EQ(counts.count("size-0 dim"), 0u);
}

TEST(Coverage, MissingListsRequiredClassesWithZeroCount) {
  Coverage cov;
  cov.required["elementwise_agree"] = {"rank-0 operand", "size-0 dim", "near_miss"};
  cov.required["expand_agree"] = {"max rank 1"};
  cov.add("elementwise_agree", make_case(R"({"op": "add", "shapes": [[],[2]]})"));
  cov.counts["elementwise_agree"]["near_miss"] = 0;  // present, but zero
  EXPECT_EQ(cov.missing(), (Names{"elementwise_agree: size-0 dim", "elementwise_agree: near_miss",
                                  "expand_agree: max rank 1"}));
  cov.add_class("elementwise_agree", "near_miss");
  cov.add_class("elementwise_agree", "size-0 dim");
  cov.add("expand_agree", make_case(R"({"op": "expand", "shapes": [[3],[3]]})"));
  EXPECT_TRUE(cov.missing().empty()) << cov.missing().front();
}

TEST(Coverage, MergeAddsCounts) {
  Coverage a;
  a.add_class("p", "x");
  a.add_class("p", "x");
  a.add_class("p", "y");
  a.required["p"] = {"x", "z"};
  Coverage b;
  b.add_class("p", "x");
  b.add_class("p", "z");
  b.add_class("q", "w");
  b.required["q"] = {"w"};
  a.merge(b);
  EXPECT_EQ(a.counts.at("p").at("x"), 3);
  EXPECT_EQ(a.counts.at("p").at("y"), 1);
  EXPECT_EQ(a.counts.at("p").at("z"), 1);
  EXPECT_EQ(a.counts.at("q").at("w"), 1);
  EXPECT_EQ(a.required.at("p"), (Names{"x", "z"}));
  EXPECT_EQ(a.required.at("q"), (Names{"w"}));
  EXPECT_TRUE(a.missing().empty());
  // The other side is left as it was.
  EXPECT_EQ(b.counts.at("p").at("x"), 1);
}

TEST(Coverage, JsonRoundTripAndMissingField) {
  Coverage cov;
  cov.add_class("p", "x");
  cov.required["p"] = {"x", "never"};
  const json j = to_json(cov);
  EXPECT_EQ(j.at("missing"), json::array({"p: never"}));
  EXPECT_EQ(j.at("counts").at("p").at("x"), 1);
  const Coverage back = coverage_from_json(j);
  EXPECT_EQ(back.counts, cov.counts);
  EXPECT_EQ(back.required, cov.required);
  EXPECT_EQ(to_json(back), j);
}

}  // namespace
}  // namespace bc
