// How the debug and sanitized xtensor adapters tell xtensor's assertions from its other exceptions, and what they
// keep of a report: the texts below are written from xtensor 0.24's xexception.hpp macros by hand.
#include "oracles/xtensor_report.h"

#include <gtest/gtest.h>

#include <string>

namespace bc {
namespace {

TEST(XtensorReport, XtensorsThreeAssertionTextsAreAssertionsItsErrorsAreNot) {
  // XTENSOR_ASSERT(expr): file:line: assertion failed (expr) \n\t
  EXPECT_TRUE(is_xtensor_assertion("/usr/include/xtensor/xstrides.hpp:538: assertion failed (size == 0) \n\t"));
  // XTENSOR_ASSERT_MSG(expr, msg): "Assertion error!\n" msg "\n  " file(line)
  EXPECT_TRUE(is_xtensor_assertion("Assertion error!\nTrying to reshape\n  /usr/include/xtensor/xarray.hpp(72)\n"));
  // XTENSOR_TRY(expr): file:line: check failed\n\t what()
  EXPECT_TRUE(is_xtensor_assertion("/usr/include/xtensor/xview.hpp:12: check failed\n\tindex 3 is out of bounds"));
  // xtensor's own errors, thrown in every build, and XTENSOR_PRECONDITION (always on) are not assertions.
  EXPECT_FALSE(is_xtensor_assertion("Incompatible dimension of arrays, compile in DEBUG for more info"));
  EXPECT_FALSE(is_xtensor_assertion("Precondition violation!\nsize mismatch\n  /usr/include/xtensor/xadapt.hpp(10)\n"));
  EXPECT_FALSE(is_xtensor_assertion("Cannot reshape with incorrect number of elements. Do you mean to resize?"));
}

TEST(XtensorReport, KeepsTheFirstLinesEachCut) {
  std::string report;
  for (int k = 0; k < kReportLines + 5; ++k) report += "line " + std::to_string(k) + "\n";
  const std::string kept = first_lines(report);
  EXPECT_EQ(kept.rfind("line 0\nline 1\n", 0), 0u) << kept;
  EXPECT_NE(kept.find("line " + std::to_string(kReportLines - 1) + "\n"), std::string::npos) << kept;
  EXPECT_EQ(kept.find("line " + std::to_string(kReportLines) + "\n"), std::string::npos) << kept;
  const std::string wide = first_lines(std::string(1000, 'x') + "\nnext");
  EXPECT_EQ(wide, std::string(kReportLineChars, 'x') + "...\nnext\n");
}

}  // namespace
}  // namespace bc
