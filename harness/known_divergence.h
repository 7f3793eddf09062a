// Known divergences: where a library (or a seed document) departs from the documented rule, declared as data in
// corpus/known_divergences.jsonl with the reason and a reference. A case they explain is counted apart and does
// not fail a run; a declaration that a run covered but never matched is stale.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// Matches an outcome by status and, optionally, error kind: {"status": "error", "error": "inplace_shape"}.
struct OutcomePattern {
  std::optional<Status> status;
  std::optional<ErrorKind> error;
  bool matches(const Outcome& o) const;
};

struct Declaration {
  std::string id;
  std::string oracle;              // "engine", "torch", "xtensor", or "document" (the case's own expectation)
  std::vector<std::string> ops;    // empty: any op
  std::vector<std::string> case_ids;  // empty: any case
  std::vector<DType> dtypes;          // empty: any case; else only cases with an operand of one of these dtypes
  bool empty = false;                 // only cases with an operand that has a size-0 dim
  bool rank0 = false;                 // only cases with an operand of rank 0 (a 0-d tensor, or the shape [])
  std::string when;                   // only cases with this named fact (harness/case_conditions.h), "" for any
  // Only on a processor with all these features (harness/processor.h): elsewhere the declaration covers nothing,
  // as the library then takes another kernel and the departure does not happen.
  std::vector<std::string> cpu;
  // Only cases whose scalar has this value (the default 1 filled in): {"beta": 0}. Compared as numbers, so 0 and
  // 0.0 (and -0.0) are alike; a NaN never matches.
  std::map<std::string, Scalar> scalars;
  // "outcome", "values" (same shapes and dtypes, other values), "grads", "message", "equivalence" (an
  // implementation's fused op against its own unfused form, properties/equivalence.h), or "nondeterministic" (the
  // implementation's values and gradients on covered cases change from run to run: harness/nondeterminism.h)
  std::string on = "outcome";
  OutcomePattern expected;         // what the rule says: the engine's outcome (for "document": the case's expect;
                                   // for on = "message": LibTorch's outcome)
  OutcomePattern actual;           // what `oracle` did instead (for "document": what every implementation did)
  std::string difference;          // optional: only these components ("shape", "dtype", "status|error kind", ...)
  std::string reason;
  std::string reference;
  int line = 0;                    // where it was declared

  // Whether a case is in the declaration's scope (op and id); a covered declaration that never matched is stale.
  bool covers(const Case& c) const;
  bool covers_op(Op op) const;  // the op part of covers(): whether `ops` lists it (or is empty)
  bool covers_beyond_op(const Case& c) const;   // the rest of covers(), for a case whose op covers_op admits
  // Whether it explains a difference in that component (harness/judge.h): any without `difference`, else the
  // components it lists, separated by "|".
  bool explains(const std::string& component) const;
};

// The implementations some declaration names that are not registered in this process (harness/implementations.h):
// their declarations can match nothing in this run.
std::vector<std::string> inactive_oracles(const std::vector<Declaration>& declarations);

// The declarations this machine's processor lacks a feature for, each as "ID (needs FEATURE, ...)": they can match
// nothing here.
std::vector<std::string> inactive_on_this_processor(const std::vector<Declaration>& declarations);

// The components a declaration's `difference` may list: every name the judge gives a difference in outcomes,
// values or gradients (harness/judge.h's Difference::component), the equivalence's (properties/equivalence.h) and
// the finite-difference check's (run/evaluate.cpp).
const std::vector<std::string>& difference_components();

struct DeclarationLoad {
  std::vector<Declaration> declarations;  // every good line, in file order
  std::vector<std::string> errors;        // "FILE:LINE: reason" for every bad line (FILE:0 when unreadable)
};

// Reads every line: a bad line (bad JSON, a bad field, a duplicate id) is one error and the others still load.
DeclarationLoad read_declarations(const std::string& path);
// The strict form, for tests and benches: throws CaseError with every error (one per line) unless all are good.
std::vector<Declaration> load_declarations(const std::string& path);
Declaration declaration_from_json(const nlohmann::json& j);
// One line of the declarations file: valid UTF-8, then JSON, then a declaration; any failure is a CaseError.
Declaration parse_declaration_text(const std::string& text);
nlohmann::json to_json(const Declaration& d);

}  // namespace bc
