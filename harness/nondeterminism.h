// Declared nondeterminism: a declaration with "on": "nondeterministic" says that an implementation's values and
// gradients change from run to run on the value-level cases it covers. Those numbers are withheld (never compared,
// never written) and such a case is known with the declaration's id whatever its numbers were, so that its verdict
// does not depend on the run. Applied to the outcomes before the judge (harness/judge.h); the judgement then lists a
// declared "nondeterministic" difference first.
#pragma once

#include <string>
#include <vector>

#include "harness/judge.h"
#include "harness/known_divergence.h"
#include "harness/outcome.h"

namespace bc {

// The nondeterministic declarations that cover `c` (a value-level case) for an implementation that ran it.
std::vector<const Declaration*> nondeterministic_declarations(const Case& c, const Outcomes& outcomes,
                                                              const std::vector<Declaration>& declarations);

// Empties the values and the gradients' values of the named implementations' ok outcomes and marks them withheld.
void withhold_values(Outcomes& outcomes, const std::vector<std::string>& names);

// judge() with declared nondeterminism: withholds the covered implementations' numbers in `outcomes`, judges
// them with the rule's numbers standing in for the withheld ones (so a withheld implementation is never an odd one
// out on numbers, while its status, shape, dtype, error and gradient structure still vote), and then an agreement
// is known with the declarations' ids, a known case lists them too, and a discrepancy among the others stays one.
Judgement judge_with_nondeterminism(const std::string& property, const Case& c, Outcomes& outcomes,
                                    const std::vector<Declaration>& declarations);

}  // namespace bc
