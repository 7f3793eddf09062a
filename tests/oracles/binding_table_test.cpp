#include "oracles/binding_table.h"

#include <gtest/gtest.h>

#include "oracles/document_oracle.h"
#include "oracles/engine_oracle.h"
#include "oracles/torch_oracle.h"
#include "oracles/xtensor_values.h"

namespace bc {
namespace {

std::string joined(const BindingProblems& problems) {
  std::string text;
  for (const std::string& p : problems) text += p + "\n";
  return text;
}

// Every op of the op table has its cell in each implementation's table: bound, or unsupported with a reason.
TEST(BindingTable, EveryImplementationHasACellForEveryOp) {
  EXPECT_TRUE(engine_binding_problems().empty()) << joined(engine_binding_problems());
  EXPECT_TRUE(document_binding_problems().empty()) << joined(document_binding_problems());
  EXPECT_TRUE(torch_binding_problems().empty()) << joined(torch_binding_problems());
  EXPECT_TRUE(xtensor_binding_problems().empty()) << joined(xtensor_binding_problems());
}

// A table of every op but one names the missing op; a cell named twice, or by an in-place form, is named too.
TEST(BindingTable, NamesAMissingADoubleAndAnInPlaceCell) {
  using Table = BindingTable<int>;
  std::vector<Table::Cell> cells;
  for (const OpEntry& e : op_table())
    if (!e.base && e.op != Op::hypot) cells.push_back({e.op, 1});
  cells.push_back({Op::add, unsupported("twice")});
  cells.push_back({Op::add_, 2});
  const Table table("a table", cells);
  ASSERT_EQ(table.problems().size(), 3u) << joined(table.problems());
  EXPECT_EQ(table.problems()[0], "a table: two cells for add");
  EXPECT_EQ(table.problems()[1], "a table: add_ is an in-place form; its cell is add's");
  EXPECT_EQ(table.problems()[2], "a table: no cell for hypot (bind it, or say why it is unsupported)");
  EXPECT_THROW(table.check(), std::logic_error);
}

// An in-place form reads its out-of-place op's cell; a refused op's reason is the cell's.
TEST(BindingTable, AnInPlaceFormReadsItsOpsCell) {
  using Table = BindingTable<int>;
  std::vector<Table::Cell> cells;
  for (const OpEntry& e : op_table())
    if (e.op == Op::lerp) cells.push_back({e.op, unsupported("no lerp")});
    else if (!e.base) cells.push_back({e.op, static_cast<int>(e.op)});
  const Table table("a table", cells);
  ASSERT_TRUE(table.problems().empty()) << joined(table.problems());
  ASSERT_NE(table.row(Op::hypot_), nullptr);
  EXPECT_EQ(*table.row(Op::hypot_), static_cast<int>(Op::hypot));
  EXPECT_EQ(table.row(Op::lerp_), nullptr);
  EXPECT_EQ(table.reason(Op::lerp_), "no lerp");
  EXPECT_EQ(table.reason(Op::hypot), "");
}

}  // namespace
}  // namespace bc
