// The verdict on one case: do the implementations agree (status, shape, dtype, error kind, in that order; a majority
// and its odd ones out, or no majority), does the rule's message equal the reference's (the engine's, LibTorch's:
// harness/implementations.h), does the case's own expectation hold, and is any difference declared?
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/case.h"
#include "harness/known_divergence.h"
#include "harness/outcome.h"

namespace bc {

enum class Verdict { agree, discrepancy, known, expect_failed };
const char* to_string(Verdict v);

// Outcomes in the registry's order (harness/implementations.h), keyed by implementation name.
using Outcomes = std::vector<std::pair<std::string, Outcome>>;
// The outcome of the implementation of that name, or nullptr.
const Outcome* find_outcome(const Outcomes& outcomes, const std::string& name);

struct Judgement {
  Verdict verdict = Verdict::agree;
  std::string difference;              // "status", "shape", "dtype", "error kind", "message", "expectation", ""
  std::vector<std::string> odd_ones;   // who differs from the rest ("document" when only the expectation fails)
  std::string attribution;             // one sentence: "xtensor is the odd one out", "all three differ", ...
  std::string known_id;                // the declaration(s) that explain it, comma-separated
  std::string signature;               // stable key of this kind of finding (see signature() below)
};

// `family` is the op family and `property` the property (or "corpus") the case came from; both enter the signature.
Judgement judge(const std::string& property, const Case& c, const Outcomes& outcomes,
                const std::vector<Declaration>& declarations);

// The outcome a case's expectation describes, for comparison and pattern matching.
Outcome expected_outcome(const Expectation& e);

}  // namespace bc
