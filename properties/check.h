// Checking one case against one property: run it on the oracles (or, for the algebra property, on the engine's
// shape functions alone), judge the outcomes, and return the record. Also the shrinker: a greedy descent through
// RapidCheck's shrink tree that keeps a failure's signature and verdict.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/run_record.h"
#include "oracles/oracle.h"

namespace bc {

// `oracles` in their fixed order, the engine first. evaluate() is judge_case() of run_case().
CaseRecord evaluate(const std::string& property, Case c, std::vector<std::unique_ptr<Oracle>>& oracles,
                    const std::vector<Declaration>& declarations, bool strict_zeros = false);
// The two halves of evaluate(), for a run that makes a window's oracle calls back to back and judges after:
// run_case() asks the oracles for the case's outcomes; judge_case() fills in the judgement (for the gradient
// check, whose finite differences are judged by calling the rule's oracle again, with more calls).
CaseRecord run_case(const std::string& property, Case c, std::vector<std::unique_ptr<Oracle>>& oracles);
void judge_case(CaseRecord& r, std::vector<std::unique_ptr<Oracle>>& oracles,
                const std::vector<Declaration>& declarations, bool strict_zeros = false);

// Submits to every oracle (Oracle::submit) the cases evaluate() runs on them for `c`, in order: none for the checks
// of the rule alone, the case and its unfused twin for an equivalence, else the case. Submitting ahead lets the
// workers compute ahead.
void submit_requests(const std::string& property, const Case& c, std::vector<std::unique_ptr<Oracle>>& oracles);

using Evaluator = std::function<CaseRecord(const Case&)>;

struct Shrunk {
  CaseRecord minimal;
  int steps = 0;                  // accepted shrinks
  int evaluations = 0;            // cases tried
  std::vector<std::size_t> path;  // at each step, the index of the accepted shrink (RapidCheck's shrink path)
};

// From `start` (whose record is `first`), repeatedly take the first shrink whose record has the same signature and
// verdict, until none does or `budget` evaluations are spent. Deterministic: RapidCheck's shrink order is.
Shrunk shrink(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget);

// Follows a shrink path from `start` without evaluating anything; nullopt if the path does not exist.
std::optional<Case> follow_shrink_path(const rc::Shrinkable<Case>& start, const std::vector<std::size_t>& path);

// Shape-level shrinks of any case, with no generator behind it (for `broadcheck shrink`): for a graph, drop a node
// or an input no node reads; drop an operand (where the op takes any number), drop a dim, set a size to 1, lower a
// size. Every candidate is a valid case.
std::vector<Case> case_shrink_candidates(const Case& c);
rc::Shrinkable<Case> shrinkable_case(const Case& c);

}  // namespace bc
