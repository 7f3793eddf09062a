#include "cli/op_support.h"

#include <iostream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "cli/builtin_implementations.h"

namespace bc {
namespace {

const std::vector<SupportRow>& matrix() {
  static const std::vector<SupportRow> rows = support_matrix(make_all_oracles(false));
  return rows;
}

// The op x implementation matrix, printed; every cell is run, or unsupported with a reason.
TEST(OpSupport, EveryCellIsRunOrUnsupportedWithAReason) {
  std::cout << support_text(matrix());
  ASSERT_EQ(matrix().size(), op_table().size());
  for (const SupportRow& row : matrix()) {
    ASSERT_EQ(row.cells.size(), builtin_implementations().size()) << row.op->name;
    for (const SupportCell& cell : row.cells) {
      SCOPED_TRACE(std::string(row.op->name) + " on " + cell.oracle);
      for (const std::string& state : {cell.values, cell.grads}) {
        EXPECT_TRUE(state == "run" || state == "unsupported" || state == "-") << state;
        if (state == "unsupported") {
          EXPECT_FALSE(cell.reason.empty());
        }
      }
    }
  }
}

// The rule's implementation (the engine) and the reference (LibTorch) run every op of the table.
TEST(OpSupport, RuleAndReferenceRunEveryOp) {
  for (const SupportRow& row : matrix())
    for (const SupportCell& cell : row.cells)
      if (const Role role = find_implementation(cell.oracle)->role; role == Role::rule || role == Role::reference) {
        EXPECT_EQ(cell.values, "run") << row.op->name << " on " << cell.oracle << ": " << cell.reason;
        EXPECT_NE(cell.grads, "unsupported") << row.op->name << " on " << cell.oracle << ": " << cell.reason;
      }
}

// The ops added through the table alone are run by all three where the library has them.
TEST(OpSupport, HypotAndDistRunEverywhere) {
  std::set<std::string> ran;
  for (const SupportRow& row : matrix())
    for (const SupportCell& cell : row.cells)
      if (cell.values == "run") ran.insert(std::string(row.op->name) + "@" + cell.oracle);
  for (const char* op : {"hypot", "dist"})
    for (const char* oracle : {"engine", "torch", "xtensor"})
      EXPECT_TRUE(ran.count(std::string(op) + "@" + oracle)) << op << "@" << oracle;
  EXPECT_TRUE(ran.count("hypot_@torch"));
  EXPECT_FALSE(ran.count("hypot_@xtensor")) << "xtensor has no computed assignment for hypot";
  // floor_divide: xtensor runs xt::floor(a / b) on the example's float operands; floor_divide_ is LibTorch's alone.
  for (const char* oracle : {"engine", "torch", "xtensor"})
    EXPECT_TRUE(ran.count(std::string("floor_divide@") + oracle)) << oracle;
  EXPECT_TRUE(ran.count("floor_divide_@torch"));
  EXPECT_FALSE(ran.count("floor_divide_@xtensor"));
}

// The issue-34 ops: the engine and LibTorch run all of them (integers for the bitwise ops and shifts); xtensor runs
// &, |, ^ and their computed assignments &=, |=, ^= (xsemantic.hpp), && and ||, and has no <<=, >>=, logical
// assignment, logical xor or logaddexp.
TEST(OpSupport, BitwiseLogicalAndLogaddexpRunWhereTheLibraryHasThem) {
  std::map<std::string, std::string> values;
  for (const SupportRow& row : matrix())
    for (const SupportCell& cell : row.cells) values[std::string(row.op->name) + "@" + cell.oracle] = cell.values;
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
                         "logical_and", "logical_or", "logical_xor", "logaddexp", "bitwise_and_", "bitwise_left_shift_",
                         "logical_xor_"})
    for (const char* oracle : {"engine", "torch"}) EXPECT_EQ(values[std::string(op) + "@" + oracle], "run") << op << "@" << oracle;
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
                         "logical_and", "logical_or"})
    EXPECT_EQ(values[std::string(op) + "@xtensor"], "run") << op;
  for (const char* op : {"bitwise_left_shift_", "bitwise_right_shift_", "logical_and_", "logical_xor", "logaddexp"})
    EXPECT_EQ(values[std::string(op) + "@xtensor"], "unsupported") << op;
}

// The unary ops run on all three, values and gradients (xtensor with its own xt::abs, xt::sqrt, ...).
TEST(OpSupport, UnaryOpsRunEverywhere) {
  for (const SupportRow& row : matrix()) {
    if (!row.op->unary) continue;
    for (const SupportCell& cell : row.cells) {
      if (cell.oracle != "engine" && cell.oracle != "torch" && cell.oracle != "xtensor") continue;
      EXPECT_EQ(cell.values, "run") << row.op->name << "@" << cell.oracle << ": " << cell.reason;
      EXPECT_EQ(cell.grads, "run") << row.op->name << "@" << cell.oracle << ": " << cell.reason;
    }
  }
}

// fill_ and zero_ run on all three (xtensor with its own fill(), on the base adaptor or a view); their gradient
// example asks no gradient of self (a leaf written in place is refused), so it runs as a value case.
TEST(OpSupport, FillAndZeroRunEverywhere) {
  for (const SupportRow& row : matrix()) {
    if (row.op->family != Family::fill) continue;
    for (const SupportCell& cell : row.cells) {
      if (cell.oracle != "engine" && cell.oracle != "torch" && cell.oracle != "xtensor") continue;
      EXPECT_EQ(cell.values, "run") << row.op->name << "@" << cell.oracle << ": " << cell.reason;
    }
  }
  EXPECT_TRUE(op_from_name("fill_") && op_from_name("zero_"));
}

// The example cases are valid: the engine accepts each (an example that errors would test nothing).
TEST(OpSupport, ExamplesAreValidCases) {
  auto engine = make_all_oracles(false);
  for (const OpEntry& e : op_table()) {
    const Outcome o = engine.front()->run(example_case(e, false));
    EXPECT_EQ(o.status, Status::ok) << e.name << ": " << (o.error ? o.error->message : o.detail);
    const Case example = example_case(e, true);
    EXPECT_EQ(to_json(case_from_json(to_json(example))), to_json(example)) << e.name;
  }
}

}  // namespace
}  // namespace bc
