// Streams results.jsonl: one line per case run, written as it comes; a line that is not an agreement is flushed
// at once (and the rest every 256 lines), so a run that is killed keeps every finding it had.
// Schema: reports/README.md.
#pragma once

#include <fstream>
#include <string>

#include "harness/run_record.h"

namespace bc {

class JsonlWriter {
 public:
  explicit JsonlWriter(const std::string& path);  // throws std::runtime_error if the file cannot be opened
  void write(const CaseRecord& record);
  long lines() const { return lines_; }

 private:
  std::ofstream out_;
  long lines_ = 0;
};

}  // namespace bc
