// The coverage section: classes grouped by kind, and a promised class with no case flagged MISSING.
#include "reports/coverage_html.h"

#include <gtest/gtest.h>

#include "html_samples.h"

namespace bc {
namespace {

TEST(CoverageKind, NamesTheKindOfEachGeneratorClass) {
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"max rank 4", "rank"}, {"rank-0 operand", "rank 0"}, {"size-0 dim", "size 0"},
      {"singleton vs non-singleton", "singleton vs non-singleton"}, {"near miss", "near miss"},
      {"dtype float64", "dtype"}, {"layout transposed", "layout"}, {"in-place", "in-place vs out-of-place"},
      {"out-of-place", "in-place vs out-of-place"}, {"3 operands", "operands"}, {"engine error:broadcast", "outcome"},
      {"valid target", "other"}};
  for (const auto& [cls, kind] : kinds) EXPECT_EQ(coverage_kind(cls), kind) << cls;
}

TEST(CoverageHtml, FlagsARequiredClassWithNoCases) {
  Coverage cov = testing::sample_summary().coverage;
  const std::string html = coverage_html(cov);
  const size_t row = html.find("<td>size-0 dim</td>");
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(html.substr(row, html.find("</tr>", row) - row).find("MISSING"), std::string::npos);
  EXPECT_EQ(testing::count(html, ">MISSING</span>"), 1u);  // near miss is required and was produced

  EXPECT_NE(html.find("<details class=\"coverage\" open><summary>broadcast_symmetric — 4 classes, 1 MISSING"),
            std::string::npos);

  cov.counts["broadcast_symmetric"]["size-0 dim"] = 4;
  const std::string fine = coverage_html(cov);
  EXPECT_EQ(testing::count(fine, ">MISSING</span>"), 0u);
  EXPECT_NE(fine.find("<details class=\"coverage\"><summary>broadcast_symmetric — 4 classes, none missing"),
            std::string::npos);  // folded
}

TEST(CoverageHtml, ListsClassesByKind) {
  const std::string html = coverage_html(testing::sample_summary().coverage);
  const size_t rank = html.find("<td>max rank 3</td>"), miss = html.find("<td>near miss</td>"),
               dtype = html.find("<td>dtype int64</td>");
  ASSERT_NE(dtype, std::string::npos);
  EXPECT_LT(rank, miss);
  EXPECT_LT(miss, dtype);
}

TEST(CoverageHtml, EscapesNames) {
  Coverage cov;
  cov.counts["<p>"] = {{"<script>", 1}};
  const std::string html = coverage_html(cov);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
}

}  // namespace
}  // namespace bc
