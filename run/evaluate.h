// Checking one case against one property: run it on the oracles (or, for the algebra and finite-difference checks,
// on the rule's implementation alone), judge the outcomes by the property's check, and return the record.
#pragma once

#include <memory>
#include <string>
#include <vector>

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

}  // namespace bc
