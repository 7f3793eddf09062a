// Streams results.jsonl: a line per case the filter keeps (reports/results_filter.h) as it comes, then, at
// finish(), one count line per property (reports/results_counts.h) that counts every case. A line that is not an
// agreement is flushed at once (and the rest every 256 lines), so a run that is killed keeps its findings (it then
// has no count lines). Schema: reports/README.md.
#pragma once

#include <fstream>
#include <string>

#include "harness/run_record.h"
#include "reports/results_counts.h"
#include "reports/results_filter.h"

namespace bc {

class JsonlWriter {
 public:
  // Throws std::runtime_error if the file cannot be opened.
  explicit JsonlWriter(const std::string& path, ResultsMode mode = ResultsMode::findings);
  void write(const CaseRecord& record);  // counts the case; writes its line if the filter keeps it
  void finish();                         // writes the count lines
  long lines() const { return lines_; }

 private:
  std::ofstream out_;
  ResultsFilter filter_;
  ResultsCounts counts_;
  long lines_ = 0;
};

}  // namespace bc
