// What the judge's tests build their inputs from: a case and a declaration from their JSON text, and the outcomes
// of the three compiled-in voters.
#pragma once

#include <string>
#include <vector>

#include "harness/judge.h"
#include "harness/known_divergence.h"

namespace bc {

using Names = std::vector<std::string>;

inline Case make_case(const char* text) { return case_from_json(nlohmann::json::parse(text)); }
inline Declaration declare(const char* text) { return declaration_from_json(nlohmann::json::parse(text)); }

inline Outcomes three(const Outcome& engine, const Outcome& torch, const Outcome& xtensor) {
  return {{"engine", engine}, {"torch", torch}, {"xtensor", xtensor}};
}

}  // namespace bc
