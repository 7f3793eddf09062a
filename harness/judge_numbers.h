// The judge's numeric steps (harness/judge.h): result values and each input's gradient, compared within the
// dtype's tolerance among the implementations whose outcomes can be compared, and the sign of zero where they are
// otherwise equal. Internal to the judge; the two helpers at the end are shared with judge.cpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/judge.h"
#include "harness/outcome_selection.h"

namespace bc {

// 1b. Values, in a case that has them.
void value_differences(const Case& c, const OutcomeSelection& voters, const std::vector<Declaration>& decls,
                       std::vector<Difference>& out);
// 1c. Gradients, in a gradient case.
void grad_differences(const Case& c, const OutcomeSelection& voters, const std::vector<Declaration>& decls,
                      std::vector<Difference>& out);

// The first declaration for `oracle` with that `on` that covers the case, matches both outcomes and explains that
// component (a declaration without `difference` explains any).
const Declaration* find_declaration(const std::vector<Declaration>& decls, const Case& c, const std::string& oracle,
                                    const std::string& on, const std::string& component, const Outcome& expected,
                                    const Outcome& actual);
// Which voters are the odd ones out, given each voter's class (voters with equal classes agree): everyone outside
// the group that holds more than half of the voters; with no such group, everyone, and the sentence says so.
std::pair<std::vector<std::string>, std::string> attribute(const std::vector<std::pair<std::string, std::string>>& classes);

}  // namespace bc
