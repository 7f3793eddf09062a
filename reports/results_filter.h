// Which cases get a line in results.jsonl. ResultsMode::all: every case. ResultsMode::findings (the default of
// `broadcheck run`): only cases that do not simply agree (discrepancy, known, expect_failed...), and of a generated
// property's cases with one signature and verdict only the first kPerSignature in run order: a 5-minute run meets
// hundreds of thousands of declared divergences of a few hundred kinds, and the file must stay small enough to
// keep as a CI artifact (the count lines still count every case). Corpus cases are always written. The same filter,
// fed a merge's lines in run order, keeps what the unsharded run kept.
#pragma once

#include <map>
#include <string>

namespace bc {

enum class ResultsMode { findings, all };

const char* to_string(ResultsMode mode);            // "findings", "all"
ResultsMode results_mode_from_string(const std::string& text);  // throws std::invalid_argument

class ResultsFilter {
 public:
  static constexpr long kPerSignature = 50;
  explicit ResultsFilter(ResultsMode mode) : mode_(mode) {}
  // Call once per case, in run order.
  bool keep(const std::string& property, const std::string& signature, const std::string& verdict);

 private:
  ResultsMode mode_;
  std::map<std::string, long> per_signature_;  // "signature | verdict" -> cases seen
};

}  // namespace bc
