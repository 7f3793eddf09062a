#include "reports/results_filter.h"

#include <stdexcept>

namespace bc {

const char* to_string(ResultsMode mode) { return mode == ResultsMode::all ? "all" : "findings"; }

ResultsMode results_mode_from_string(const std::string& text) {
  if (text == "all") return ResultsMode::all;
  if (text == "findings") return ResultsMode::findings;
  throw std::invalid_argument("results mode \"" + text + "\": expected findings or all");
}

bool ResultsFilter::keep(const std::string& property, const std::string& signature, const std::string& verdict) {
  if (mode_ == ResultsMode::all) return true;
  if (verdict == "agree") return false;
  if (property == "corpus") return true;
  return ++per_signature_[property + " | " + signature + " | " + verdict] <= kPerSignature;
}

}  // namespace bc
