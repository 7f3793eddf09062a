#include "reports/jsonl_writer.h"

#include <stdexcept>

#include "reports/results_line.h"

namespace bc {

JsonlWriter::JsonlWriter(const std::string& path) : out_(path, std::ios::trunc) {
  if (!out_) throw std::runtime_error(path + ": cannot open for writing");
}

void JsonlWriter::write(const CaseRecord& record) {
  out_ << results_line(record) << '\n';
  ++lines_;
  // Anything but agreement reaches the disk at once; agreeing lines at least every 256 lines.
  if (record.judgement.verdict != Verdict::agree || lines_ % 256 == 0) out_.flush();
}

}  // namespace bc
