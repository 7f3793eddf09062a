// Reading corpus/*.jsonl: every good line becomes a case; every bad line becomes "FILE:LINE: reason" and the
// rest of the file still loads. Resource limits are enforced here too, so an oversized case is refused alone.
#pragma once

#include <string>
#include <vector>

#include "harness/case.h"

namespace bc {

// Caps, documented in corpus/README.md. The generators stay far below them (sizes <= 5, rank <= 6).
constexpr int64_t kMaxElementsPerTensor = int64_t{1} << 20;
constexpr int64_t kMaxElementsPerCase = int64_t{1} << 22;
constexpr size_t kMaxRank = 64;      // dims per shape (LibTorch's own limit for many kernels)
constexpr size_t kMaxOperands = 64;  // shapes per case (broadcast_shapes takes any number)
constexpr int64_t kMaxProductTerms = int64_t{1} << 24;  // a product's multiply-adds, batch * n * k * m

// "" when the case is within the caps, else the reason. Counted (with overflow checks: harness/element_count.h):
// the operands (every implementation allocates them, shape-level cases too) and what the op allocates beyond them:
// the broadcast of all operands for the pointwise ops, the target of expand and sum_to (their second shape is a
// size list, not a tensor), a product's result (batch * n * m); nothing for broadcast_shapes, which answers with
// views. A product's work (batch * n * k * m multiply-adds) has a cap of its own.
std::string check_limits(const Case& c);

struct CorpusEntry {
  Case c;
  std::string file;
  int line = 0;
  std::string property = "corpus";  // whose check judges it: "corpus" (every oracle) or a property's
};

struct CorpusLoad {
  std::vector<CorpusEntry> entries;
  std::vector<std::string> errors;  // "FILE:LINE: reason", in file order
};

// Loads each file in order; a missing file is one error. Duplicate ids within the load are refused.
CorpusLoad load_corpus(const std::vector<std::string>& paths);

// Parses one line of JSON text as a case (for --case on the command line); throws CaseError.
Case parse_case_text(const std::string& text);

}  // namespace bc
