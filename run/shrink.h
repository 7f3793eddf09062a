// The shrinker: a greedy descent through RapidCheck's shrink tree of a failing case that keeps the failure's
// signature and verdict, then through the shrinks any case has (fewer operands, lower ranks, smaller sizes:
// properties/case_shrinks.h), and the way back down the paths it took (for reproduce tokens, run/reproduce_token.h).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include <rapidcheck.h>

#include "harness/run_record.h"

namespace bc {

using Evaluator = std::function<CaseRecord(const Case&)>;

struct Shrunk {
  CaseRecord minimal;
  int steps = 0;                  // accepted shrinks
  int evaluations = 0;            // cases tried
  std::vector<std::size_t> path;  // at each step, the index of the accepted shrink (RapidCheck's shrink path)
  // After `path`, the steps taken through the shrinks of any case (shrinkable_case), the same way.
  std::vector<std::size_t> case_path;
};

// From `start` (whose record is `first`), repeatedly take the first shrink whose record has the same signature and
// verdict, until none does or `budget` evaluations are spent. Deterministic: RapidCheck's shrink order is.
Shrunk shrink(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget);

// shrink(), then on from its minimal case through shrinkable_case(): a generator's tree may keep an operand, a dim
// or a size its failure does not need (and a corpus case has no tree: its `start` is shrinkable_case of itself).
// Both phases share `budget`.
Shrunk shrink_fully(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget);

// Follows a shrink path from `start` without evaluating anything; nullopt if the path does not exist.
std::optional<Case> follow_shrink_path(const rc::Shrinkable<Case>& start, const std::vector<std::size_t>& path);

}  // namespace bc
