// The op x implementation matrix: each op of the table run on each implementation with a small valid example
// (values, and gradients where the op has them), so that what an implementation supports is what it really does,
// not what it claims. `broadcheck list ops` prints it; tests/cli/op_support_test.cpp holds every cell to "run" or
// "unsupported, with a reason".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/op_table.h"
#include "harness/case.h"
#include "oracles/oracle.h"

namespace bc {

// A valid case of op `e` (float32 operands, a bool condition for where; shapes of its family), with values; with
// `gradient`, every floating operand but an in-place self requires grad.
Case example_case(const OpEntry& e, bool gradient);

struct SupportCell {
  std::string oracle;
  std::string values;  // "run" (ok or an error outcome), "unsupported", "crash", "timeout"
  std::string grads;   // the same for the gradient example; "-" where the op has no gradient in the table
  std::string reason;  // an unsupported cell's reason (the first, values before grads)
};
struct SupportRow {
  const OpEntry* op;
  std::vector<SupportCell> cells;  // one per oracle, in the given order
};

std::vector<SupportRow> support_matrix(const std::vector<std::unique_ptr<Oracle>>& oracles);

// The matrix as text within 80 columns (a legend that numbers the implementations, one line per op with a mark per
// cell, then each reason for an unsupported cell once, with its ops) and as JSON.
std::string support_text(const std::vector<SupportRow>& rows);
nlohmann::json support_json(const std::vector<SupportRow>& rows);

}  // namespace bc
