#include "reports/jsonl_writer.h"

#include <stdexcept>

#include "reports/results_line.h"

namespace bc {

JsonlWriter::JsonlWriter(const std::string& path, ResultsMode mode) : out_(path, std::ios::trunc), filter_(mode) {
  if (!out_) throw std::runtime_error(path + ": cannot open for writing");
}

void JsonlWriter::write(const CaseRecord& record) {
  // A case of a finding that did not reproduce alike is counted under its stability, not as a discrepancy.
  const std::string verdict = record.stability.empty() ? to_string(record.judgement.verdict) : record.stability;
  const bool keep = filter_.keep(record.property, record.judgement.signature, verdict);
  counts_.add(record.property, verdict, keep);
  if (!keep) return;
  out_ << results_line(record) << '\n';
  ++lines_;
  finding_unflushed_ = finding_unflushed_ || record.judgement.verdict != Verdict::agree;
  if (lines_ % 256 == 0) {
    out_.flush();
    finding_unflushed_ = false;
  }
}

void JsonlWriter::end_batch() {
  if (!finding_unflushed_) return;
  out_.flush();
  finding_unflushed_ = false;
}

void JsonlWriter::finish() {
  for (const std::string& line : counts_.lines()) out_ << line << '\n';
  out_.flush();
}

}  // namespace bc
