// Checking one case against one property: run it on the oracles (or, for the algebra property, on the engine's
// shape functions alone), judge the outcomes, and return the record. Also the shrinker: a greedy descent through
// RapidCheck's shrink tree that keeps a failure's signature.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/run_record.h"
#include "oracles/oracle.h"

namespace bc {

// `oracles` in their fixed order, the engine first.
CaseRecord evaluate(const std::string& property, const Case& c, std::vector<std::unique_ptr<Oracle>>& oracles,
                    const std::vector<Declaration>& declarations);

using Evaluator = std::function<CaseRecord(const Case&)>;

struct Shrunk {
  CaseRecord minimal;
  int steps = 0;        // accepted shrinks
  int evaluations = 0;  // cases tried
};

// From `start` (whose record is `first`), repeatedly take the first shrink whose record has the same signature,
// until none does or `budget` evaluations are spent. Deterministic: RapidCheck's shrink order is.
Shrunk shrink(const rc::Shrinkable<Case>& start, const CaseRecord& first, const Evaluator& evaluate, int budget);

}  // namespace bc
