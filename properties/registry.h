// The properties broadcheck checks, by name: each pairs a generator with a check and lists the coverage classes
// its generator must produce (a class that never occurs in a run is flagged as a bug).
#pragma once

#include <string>
#include <vector>

#include <rapidcheck.h>

#include "harness/case.h"

namespace bc {

enum class Check {
  oracles,  // run the case on every oracle; outcomes must agree and the engine's message must equal LibTorch's
  algebra,  // the laws of broadcasting on the engine alone (broadcast_algebra_violation below)
  finite_differences,  // the engine's gradients against finite differences (run/finite_difference.h)
  equivalence,  // on each oracle alone: a fused op against its unfused form (properties/equivalence.h)
};

struct Property {
  std::string name;
  std::string description;
  rc::Gen<Case> gen;
  Check check;
  std::vector<std::string> required;  // coverage classes (harness/coverage.h, plus "engine <outcome>")
  bool runs_variants = false;  // its cases are the ones the variant paths (Role::variant) answer
};

const std::vector<Property>& properties();
const Property* find_property(const std::string& name);
// What a run requires of the property: `required`, plus "<name> ok" for each registered variant when the property
// runs them (each path must have answered some case), so that no implementation is named here.
std::vector<std::string> required_classes(const Property& p);
std::string property_names();

// For a case of three shapes a, b, c: the first law of broadcasting that the engine breaks, described with the
// shapes involved, or "" when all hold. Laws: commutative, associative (and equal to the n-ary fold), every grouping
// of the three equal to broadcasting them together (seed 003's addcmul proof sketch), rank 0 is the identity,
// idempotent.
std::string broadcast_algebra_violation(const Case& c);

}  // namespace bc
