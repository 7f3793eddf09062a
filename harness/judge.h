// The verdict on one case. The judge lists every way in which the implementations differ (each field of the
// outcome, the values, each input's gradient, the message, the case's own expectation) and, for each, the
// declarations that explain it (a variant's ways of differing from its base included, Role::variant); a case is
// `known` only when every difference in it is declared (docs/notes/judge.md). The lead difference (the first undeclared one, else the first) names the finding.
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

// What kind of finding a difference makes: a different outcome (status, error kind, shape, dtype, values,
// gradients), a different message text (lower severity: a report can filter it out), or a difference in the sign of
// zero among values that are otherwise equal (informational: never a failure unless --strict-zeros).
// A difference only the documents' own answer has (harness/implementations.h, Role::document) is a
// "documentation vs implementation" finding (document).
enum class FindingClass { outcome, document, message, zeros };
const char* to_string(FindingClass k);

// One way in which the implementations differ.
struct Difference {
  // "status", "error kind", "signal", "shape", "dtype", "warnings", "values", "grad shape", "grads" (which inputs get one),
  // "grad values", "signed zeros", "message", "warning text", "expectation", "expected message"
  std::string component;
  FindingClass finding_class = FindingClass::outcome;
  int operand = -1;                      // "grad values" and gradient zeros: which input's gradient
  std::vector<std::string> odd_ones;     // who differs from the rest ("document" when only the expectation fails)
  std::string attribution;               // one sentence for people
  std::vector<std::string> known_ids;    // the declarations that explain it
  std::vector<std::string> undeclared;   // whose part of it no declaration explains; empty: declared
  Verdict if_undeclared = Verdict::discrepancy;  // discrepancy, or expect_failed for the case's own expectation
  bool declared() const { return undeclared.empty(); }
  friend bool operator==(const Difference& a, const Difference& b);
};

struct Judgement {
  Verdict verdict = Verdict::agree;
  std::vector<Difference> differences;  // every one, outcome differences first, then messages, then zeros
  // The lead difference's fields, as the findings are grouped and named by it:
  std::string difference;              // its component, or ""
  std::vector<std::string> odd_ones;
  std::string attribution;
  std::string known_id;                // every declaration that explains a difference of the case, comma-separated
  std::string signature;               // stable key of this kind of finding (harness/signature.h)
};

// The difference the judgement's lead fields were taken from, or nullptr (an agreement).
const Difference* lead_difference(const Judgement& j);

// `property` is the property (or "corpus") the case came from; it enters the signature.
Judgement judge(const std::string& property, const Case& c, const Outcomes& outcomes,
                const std::vector<Declaration>& declarations);

// Whether the judgement's odd ones out are every implementation that voted on the case (two or more; variants and
// unsupported outcomes do not vote): no majority stood against them, so none of them is "the odd one out".
bool without_majority(const Judgement& j, const Outcomes& outcomes);

// --strict-zeros: an undeclared signed-zero difference counts as a discrepancy (and leads, if nothing else does).
void make_zeros_strict(const std::string& property, const Case& c, const Outcomes& outcomes, Judgement& j);

// The outcome a case's expectation describes, for comparison and pattern matching.
Outcome expected_outcome(const Expectation& e);

nlohmann::json to_json(const Difference& d);
Difference difference_from_json(const nlohmann::json& j);

}  // namespace bc
