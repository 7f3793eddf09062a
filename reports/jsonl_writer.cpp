#include "reports/jsonl_writer.h"

#include <cerrno>

#include "reports/results_line.h"
#include "reports/text_file.h"

namespace bc {

JsonlWriter::JsonlWriter(const std::string& path, ResultsMode mode)
    : path_(path), out_(path, std::ios::trunc), filter_(mode) {
  if (!out_) throw WriteError(write_failure(path, errno));
}

// The stream keeps no reason of its own: errno is the one its failed write(2) left (ENOSPC on a full disk).
void JsonlWriter::check() {
  if (!out_) throw WriteError(write_failure(path_, errno));
}

void JsonlWriter::write(const CaseRecord& record) {
  // A case of a finding that did not reproduce alike is counted under its stability, not as a discrepancy.
  const std::string verdict = record.stability.empty() ? to_string(record.judgement.verdict) : record.stability;
  const bool keep = filter_.keep(record.property, record.judgement.signature, verdict);
  counts_.add(record.property, verdict, keep);
  if (!keep) return;
  errno = 0;
  out_ << results_line(record) << '\n';
  check();
  ++lines_;
  finding_unflushed_ = finding_unflushed_ || record.judgement.verdict != Verdict::agree;
  if (lines_ % 256 == 0) {
    out_.flush();
    check();
    finding_unflushed_ = false;
  }
}

void JsonlWriter::end_batch() {
  if (!finding_unflushed_) return;
  errno = 0;
  out_.flush();
  check();
  finding_unflushed_ = false;
}

void JsonlWriter::finish() {
  errno = 0;
  for (const std::string& line : counts_.lines()) out_ << line << '\n';
  out_.flush();
  check();
}

}  // namespace bc
