// The shape picture: stretched singletons, the offending dim, in-place self that cannot grow, expand's -1, and
// matmul's matrix dims set apart from its batch dims.
#include "reports/shape_picture.h"

#include <gtest/gtest.h>

#include "html_samples.h"

namespace bc {
namespace {

using testing::count;

Case make(const std::string& op, std::vector<Shape> shapes) {
  Case c;
  c.op = op_from_name(op).value();
  c.shapes = std::move(shapes);
  return c;
}

// The picture's table without the legend below it (which explains the marks, and so contains them).
std::string table(const Case& c, const Outcomes& outcomes = {}) {
  const std::string html = shape_picture_html(c, outcomes);
  return html.substr(0, html.find("</table>"));
}

TEST(ShapePicture, MarksStretchedSingletons) {
  const std::string html = shape_picture_html(make("add", {{2, 1, 3}, {4, 3}}), {});
  EXPECT_NE(html.find("1 ↑ (1→4)"), std::string::npos);
  EXPECT_EQ(html.find("class=\"clash\""), std::string::npos);
  EXPECT_NE(html.find("<td class=\"pad\">"), std::string::npos);  // [4, 3] has no dim -3
  EXPECT_NE(html.find("#1 self"), std::string::npos);
  EXPECT_NE(html.find("#2 other"), std::string::npos);
}

TEST(ShapePicture, HighlightsTheOffendingDim) {
  const std::string html = shape_picture_html(make("add", {{2, 3}, {4, 3}}), {});
  EXPECT_NE(html.find(">2 ✗</td>"), std::string::npos);
  EXPECT_NE(html.find(">4 ✗</td>"), std::string::npos);
  EXPECT_NE(html.find("<th class=\"num offending\">dim -2 ✗</th>"), std::string::npos);
  // Only the two offending cells are red (class "clash"): not the heading, not the 3s of dim -1.
  EXPECT_EQ(count(table(make("add", {{2, 3}, {4, 3}})), "class=\"clash\""), 2u);
  EXPECT_NE(html.find("<th class=\"num\">dim -1</th>"), std::string::npos);  // 3 against 3 is fine
  EXPECT_EQ(html.find("class=\"stretch\""), std::string::npos);
}

TEST(ShapePicture, ShowsEachDistinctResultShapeWithWhoProducedIt) {
  const std::string html = shape_picture_html(
      make("add", {{2, 1}, {3}}),
      {{"engine", Outcome::success({2, 3})}, {"torch", Outcome::success({2, 3})}, {"xtensor", Outcome::success({3})}});
  EXPECT_NE(html.find("result (engine, torch)"), std::string::npos);
  EXPECT_NE(html.find("result (xtensor)"), std::string::npos);
}

TEST(ShapePicture, InPlaceSelfCannotGrow) {
  const std::string stretched = shape_picture_html(make("add_", {{1, 3}, {4, 3}}), {});
  EXPECT_NE(stretched.find("1 ✗ (self cannot grow to 4)"), std::string::npos);
  EXPECT_NE(stretched.find("dim -2 ✗"), std::string::npos);
  const std::string longer = shape_picture_html(make("add_", {{3}, {1, 3}}), {});
  EXPECT_NE(longer.find("· ✗"), std::string::npos);  // other brings a dim self does not have
  EXPECT_NE(longer.find("dim -2 ✗"), std::string::npos);
  const std::string fine = table(make("add_", {{4, 3}, {1, 3}}));
  EXPECT_EQ(fine.find("✗"), std::string::npos);
  EXPECT_NE(fine.find("1 ↑ (1→4)"), std::string::npos);
}

TEST(ShapePicture, ExpandKeepsWithMinusOneAndStretchesOnlySelf) {
  const std::string ok = table(make("expand", {{3, 1}, {2, -1, 4}}));
  EXPECT_NE(ok.find("-1 (keep)"), std::string::npos);
  EXPECT_NE(ok.find("1 ↑ (1→4)"), std::string::npos);
  EXPECT_NE(ok.find("#2 target"), std::string::npos);
  EXPECT_EQ(ok.find("✗"), std::string::npos);
  const std::string bad = shape_picture_html(make("expand", {{3}, {-1, 2}}), {});
  EXPECT_NE(bad.find("-1 ✗"), std::string::npos);  // -1 in a new leading dim
  EXPECT_NE(bad.find(">3 ✗</td>"), std::string::npos);
  EXPECT_NE(bad.find(">2 ✗</td>"), std::string::npos);
}

TEST(ShapePicture, MatmulSetsTheMatrixDimsApartFromTheBatchDims) {
  const std::string html = table(make("matmul", {{5, 2, 3}, {3, 4}}), {{"engine", Outcome::success({5, 2, 4})}});
  EXPECT_NE(html.find("<th colspan=\"1\">batch dims (broadcast)</th><th class=\"gap\"></th>"
                      "<th colspan=\"2\">matrix dims (matmul's own rule)</th>"),
            std::string::npos);
  EXPECT_NE(html.find("rows (dim -2)"), std::string::npos);
  EXPECT_NE(html.find("cols (dim -1)"), std::string::npos);
  EXPECT_NE(html.find("<th class=\"num\">dim -3</th>"), std::string::npos);
  // Every row has its gap cell between the batch and the matrix dims: two operands and one result.
  EXPECT_EQ(count(html, "<td class=\"gap\"></td>"), 3u);
  // The contracted pair is marked, 3 against 3 agrees: nothing offends.
  EXPECT_EQ(count(html, "3 (k)"), 2u);
  EXPECT_EQ(html.find("✗"), std::string::npos);
  EXPECT_NE(html.find("result (engine)</th><td>5</td><td class=\"gap\"></td><td>2</td><td>4</td>"),
            std::string::npos);
}

TEST(ShapePicture, MatmulInnerDimsThatDifferOffend) {
  const std::string html = table(make("matmul", {{2, 3}, {4, 5}}));
  EXPECT_NE(html.find("3 ✗ (k)"), std::string::npos);
  EXPECT_NE(html.find("4 ✗ (k)"), std::string::npos);
  EXPECT_NE(html.find("cols (dim -1) ✗"), std::string::npos);
  EXPECT_EQ(html.find("batch dims"), std::string::npos);  // no batch dims: no batch heading
  EXPECT_NE(html.find("matrix dims (matmul's own rule)"), std::string::npos);
}

TEST(ShapePicture, MatmulBroadcastsOnlyTheBatchDims) {
  const std::string html = table(make("matmul", {{2, 1, 2, 3}, {4, 3, 5}}));
  EXPECT_NE(html.find("1 ↑ (1→4)"), std::string::npos);  // batch dim -3
  EXPECT_EQ(html.find("✗"), std::string::npos);           // 2 against 5 in the matrix dims is no clash
  const std::string clash = shape_picture_html(make("matmul", {{2, 2, 3}, {4, 3, 5}}), {});
  EXPECT_NE(clash.find(">2 ✗</td>"), std::string::npos);
  EXPECT_NE(clash.find(">4 ✗</td>"), std::string::npos);
  EXPECT_NE(clash.find("dim -3 ✗"), std::string::npos);
}

TEST(ShapePicture, MatmulOneDimensionalOperandsFillTheirPromotedColumn) {
  // [3] @ [2, 3, 4]: self is a row [1, 3], so its 3 sits under cols, contracted with other's rows.
  const std::string row = shape_picture_html(make("matmul", {{3}, {2, 3, 4}}), {{"torch", Outcome::success({2, 4})}});
  EXPECT_NE(row.find("<td class=\"pad\" title=\"1-D self: promoted to a row"), std::string::npos);
  EXPECT_EQ(count(row, "3 (k)"), 2u);
  EXPECT_NE(row.find("result (torch)</th><td>2</td><td class=\"gap\"></td><td class=\"pad\">·</td><td>4</td>"),
            std::string::npos);
  // [2, 3] @ [3]: other is a column [3, 1]; the result [2] sits under rows.
  const std::string col = shape_picture_html(make("matmul", {{2, 3}, {3}}), {{"torch", Outcome::success({2})}});
  EXPECT_NE(col.find("title=\"1-D other: promoted to a column"), std::string::npos);
  EXPECT_NE(col.find("result (torch)</th><td class=\"gap\"></td><td>2</td><td class=\"pad\">·</td>"),
            std::string::npos);
}

TEST(ShapePicture, InPlaceFormsOfOtherFamiliesKeepSelf) {
  // lerp_ and unfused_addcmul_ are in place too: self may not grow, whatever their family.
  EXPECT_NE(table(make("lerp_", {{1, 3}, {4, 3}, {3}})).find("1 ✗ (self cannot grow to 4)"), std::string::npos);
  EXPECT_NE(table(make("unfused_addcmul_", {{3}, {2, 3}, {3}})).find("· ✗"), std::string::npos);
  EXPECT_EQ(table(make("unfused_addcmul", {{3}, {2, 3}, {3}})).find("✗"), std::string::npos);
}

TEST(ShapePicture, SumToShowsWhatIsSummed) {
  const std::string html =
      shape_picture_html(make("sum_to", {{2, 4, 3}, {1, 3}}), {{"engine", Outcome::success({1, 3})}});
  const std::string t = html.substr(0, html.find("</table>"));
  EXPECT_NE(t.find("2 Σ (summed away)"), std::string::npos);
  EXPECT_NE(t.find("4 Σ (→1)"), std::string::npos);
  EXPECT_EQ(t.find("↑"), std::string::npos);  // nothing stretches in a reduction
  EXPECT_EQ(t.find("✗"), std::string::npos);
  EXPECT_EQ(html.find("impossible reduction"), std::string::npos);
  EXPECT_NE(t.find("#1 self"), std::string::npos);
  EXPECT_NE(t.find("#2 target"), std::string::npos);
}

TEST(ShapePicture, SumToMarksAnImpossibleReduction) {
  // A target size other than 1 that differs from self's: LibTorch 1.13 returns [2, 3] unchecked, the rule refuses.
  const std::string sizes = shape_picture_html(make("sum_to", {{2, 3}, {4, 3}}), {{"torch", Outcome::success({2, 3})}});
  EXPECT_NE(sizes.find("✗ impossible reduction</strong>: the target [4, 3] does not expand to self [2, 3]"),
            std::string::npos);
  EXPECT_NE(sizes.find(">2 ✗</td>"), std::string::npos);
  EXPECT_NE(sizes.find(">4 ✗</td>"), std::string::npos);
  EXPECT_NE(sizes.find("<th class=\"num offending\">dim -2 ✗</th>"), std::string::npos);
  EXPECT_EQ(count(sizes.substr(0, sizes.find("</table>")), "class=\"clash\""), 2u);
  // A target with a dim self lacks.
  const std::string longer = shape_picture_html(make("sum_to", {{3}, {1, 3}}), {});
  EXPECT_NE(longer.find("impossible reduction"), std::string::npos);
  EXPECT_NE(longer.find("· ✗"), std::string::npos);
  // A rank-0 target sums everything: possible.
  EXPECT_EQ(shape_picture_html(make("sum_to", {{2, 3}, {}}), {}).find("impossible reduction"), std::string::npos);
}

TEST(ShapePicture, StrictProductsPutEachDimUnderItsIndex) {
  const std::string mm = table(make("mm", {{2, 3}, {3, 4}}), {{"engine", Outcome::success({2, 4})}});
  EXPECT_NE(mm.find("<th class=\"num\">n (rows)</th><th class=\"num\">k (contracted)</th>"
                    "<th class=\"num\">m (cols)</th>"),
            std::string::npos);
  EXPECT_NE(mm.find("#1 self</th><td>2</td><td class=\"matrix\" title=\"contracted\">3 (k)</td><td class=\"pad\">"),
            std::string::npos);
  EXPECT_NE(mm.find("#2 other</th><td class=\"pad\">·</td><td class=\"matrix\" title=\"contracted\">3 (k)</td>"
                    "<td>4</td>"),
            std::string::npos);
  EXPECT_NE(mm.find("result (engine)</th><td>2</td><td class=\"pad\">·</td><td>4</td>"), std::string::npos);
  EXPECT_EQ(mm.find("✗"), std::string::npos);
  EXPECT_EQ(mm.find("batch"), std::string::npos);

  const std::string dot = table(make("dot", {{3}, {4}}));
  EXPECT_NE(dot.find("3 ✗ (k)"), std::string::npos);
  EXPECT_NE(dot.find("4 ✗ (k)"), std::string::npos);
  EXPECT_NE(dot.find("k (contracted) ✗"), std::string::npos);

  const std::string outer = table(make("outer", {{2}, {5}}));
  EXPECT_EQ(outer.find("(k)"), std::string::npos);  // nothing contracted
  EXPECT_NE(outer.find("#1 self</th><td>2</td><td class=\"pad\">·</td>"), std::string::npos);
  EXPECT_NE(outer.find("#2 other</th><td class=\"pad\">·</td><td>5</td>"), std::string::npos);

  const std::string mv = table(make("mv", {{2, 3}, {3}}));
  EXPECT_NE(mv.find("#2 other</th><td class=\"pad\">·</td><td class=\"matrix\" title=\"contracted\">3 (k)</td>"),
            std::string::npos);
}

TEST(ShapePicture, BmmBatchesMustBeEqualAndWrongRanksAreNamed) {
  const std::string bmm = table(make("bmm", {{2, 3, 4}, {1, 4, 5}}));
  EXPECT_NE(bmm.find("batch: equal sizes, no broadcasting"), std::string::npos);
  EXPECT_NE(bmm.find("b (batch) ✗"), std::string::npos);  // a batch of 1 does not stretch
  EXPECT_NE(bmm.find(">1 ✗</td>"), std::string::npos);
  EXPECT_EQ(bmm.find("↑"), std::string::npos);
  EXPECT_NE(bmm.find("4 (k)"), std::string::npos);

  const std::string rank = table(make("bmm", {{3, 4}, {2, 2, 4, 5}}));
  // self lacks b; other's extra leading dim stands apart, so every row starts with that column and a gap.
  EXPECT_NE(rank.find("#1 self ✗ 2-D, the op takes 3-D</th><td class=\"pad\">·</td><td class=\"gap\"></td>"
                      "<td class=\"clash\""),
            std::string::npos);
  EXPECT_NE(rank.find("#2 other ✗ 4-D, the op takes 3-D"), std::string::npos);
  EXPECT_NE(rank.find("dims beyond the op's rank"), std::string::npos);
  EXPECT_NE(rank.find("#2 other ✗ 4-D, the op takes 3-D</th><td class=\"clash\" title=\"a dim beyond"),
            std::string::npos);
}

TEST(ShapePicture, FusedOpsBroadcastOnlyC) {
  const std::string addmm = table(make("addmm", {{1, 4}, {2, 3}, {3, 4}}), {{"engine", Outcome::success({2, 4})}});
  EXPECT_NE(addmm.find("#1 C</th><td class=\"stretch\" title=\"size 1 stretched: C broadcasts\">1 ↑ (1→2)</td>"),
            std::string::npos);
  EXPECT_NE(addmm.find("#2 A</th>"), std::string::npos);
  EXPECT_NE(addmm.find("#3 B</th>"), std::string::npos);
  EXPECT_EQ(addmm.find("✗"), std::string::npos);
  // In place C keeps its shape: the same C cannot grow.
  const std::string inplace = table(make("addmm_", {{1, 4}, {2, 3}, {3, 4}}));
  EXPECT_NE(inplace.find("1 ✗ (C cannot grow to 2)"), std::string::npos);
  EXPECT_NE(table(make("addmv_", {{}, {2, 3}, {3}})).find("· ✗"), std::string::npos);
  EXPECT_EQ(table(make("addmv", {{}, {2, 3}, {3}})).find("✗"), std::string::npos);
  // A C that is not the product's shape.
  EXPECT_NE(table(make("addr", {{3, 5}, {2}, {5}})).find(">3 ✗</td>"), std::string::npos);
}

TEST(ShapePicture, BatchedFusedOpsShowTheirBatch) {
  const std::string baddbmm = table(make("baddbmm", {{3, 1}, {5, 3, 2}, {5, 2, 4}}));
  EXPECT_NE(baddbmm.find("batch: equal sizes, no broadcasting"), std::string::npos);
  EXPECT_NE(baddbmm.find("1 ↑ (1→4)"), std::string::npos);
  EXPECT_NE(baddbmm.find("2 (k)"), std::string::npos);
  // addbmm sums over the batch: C has no batch dim, and the batch is marked as summed.
  const std::string addbmm =
      table(make("addbmm", {{3, 4}, {5, 3, 2}, {5, 2, 4}}), {{"engine", Outcome::success({3, 4})}});
  EXPECT_NE(addbmm.find("b (batch, summed)"), std::string::npos);
  EXPECT_NE(addbmm.find("batch: equal sizes, summed over"), std::string::npos);
  EXPECT_EQ(count(addbmm, "5 (k)"), 2u);
  EXPECT_NE(addbmm.find("#1 C</th><td class=\"pad\">·</td><td>3</td>"), std::string::npos);
  EXPECT_NE(addbmm.find("result (engine)</th><td class=\"pad\">·</td><td>3</td>"), std::string::npos);
}

TEST(ShapePicture, RankZeroEverywhereSaysSo) {
  EXPECT_NE(shape_picture_html(make("add", {{}, {}}), {{"engine", Outcome::success({})}}).find("rank 0"),
            std::string::npos);
}

}  // namespace
}  // namespace bc
