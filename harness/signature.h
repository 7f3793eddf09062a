// A finding's signature: the stable text that groups a run's cases into findings (with the verdict) and names a
// finding's test in junit.xml. Every signature is made by make_signature(), from the parts below, in this order:
// "PROPERTY | FAMILY | DIFFERENCE[ | odd: ODD ONES | CLOSING]".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/case.h"

namespace bc {

struct SignatureParts {
  std::string property;    // the property the case came from ("corpus"), or "adapter_fault" for an adapter's fault
  std::string family;      // family_of(case), "broadcast_shapes" for the algebra, the adapter for its fault
  std::string difference;  // "status", "equivalence: status, status", "finite differences: atan2", ...
  // The odd ones out and what closes the signature (the op, or the voters' outcome classes); without odd ones the
  // signature ends with the difference.
  std::optional<std::vector<std::string>> odd_ones = std::nullopt;
  std::string closing = "";
  // How the odd ones are listed: the equivalence check lists them with ", ", the others with ",". A signature names
  // a finding across runs (junit.xml's tests, a CI's history), so the two spellings stay.
  std::string odd_separator = ",";
};

std::string make_signature(const SignatureParts& parts);

// The family a signature names for a case: its op's family.
std::string family_of(const Case& c);

// A signature without the voters' outcome classes that the judge's signatures end with (" | engine=ok torch=error:
// inplace_shape ..."): property, family, difference and odd ones out, which stay the same when a voter joins the
// run. Other signatures (equivalence, algebra, finite differences, nondeterminism) hold no outcome classes and come
// back as they are.
std::string signature_without_outcomes(const std::string& signature);

}  // namespace bc
