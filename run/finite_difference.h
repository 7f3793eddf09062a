// A library-free opinion on gradients: the engine's analytic gradients of a gradient case, recomputed in float64,
// against central finite differences of the engine's own forward pass (sum of upstream * output). Points where
// the function has a kink or a jump (the one-sided differences disagree: maximum's ties, remainder's jumps) or is
// not finite are skipped, as gradcheck would fail there for any implementation. Tolerances: gradcheck's defaults.
#pragma once

#include <string>

#include "harness/case.h"
#include "oracles/oracle.h"

namespace bc {

struct FiniteDifferenceResult {
  std::string violation;  // "" when every compared element agrees
  int compared = 0;       // elements compared
  int skipped = 0;        // elements skipped (kink, jump or not finite)
};

// At most `per_operand` elements of each operand that requires grad are perturbed (evenly spread).
FiniteDifferenceResult check_finite_differences(const Case& c, Oracle& engine, int per_operand = 8);

}  // namespace bc
