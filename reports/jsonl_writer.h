// Streams results.jsonl: a line per case the filter keeps (reports/results_filter.h) as it comes, then, at
// finish(), one count line per property (reports/results_counts.h) that counts every case. The lines of a batch
// (the run's window of cases) that holds anything but agreement reach the disk when the batch ends (and any line
// within 256 lines), so a run that is killed keeps the findings of every batch it ended (it then has no count
// lines); one flush per batch, not per line. A line that cannot be written (a full disk) throws WriteError
// (reports/text_file.h) with the system's reason. Schema: reports/README.md.
#pragma once

#include <fstream>
#include <string>

#include "harness/run_record.h"
#include "reports/results_counts.h"
#include "reports/results_filter.h"

namespace bc {

class JsonlWriter {
 public:
  // Throws WriteError if the file cannot be opened.
  explicit JsonlWriter(const std::string& path, ResultsMode mode = ResultsMode::findings);
  void write(const CaseRecord& record);  // counts the case; writes its line if the filter keeps it
  void end_batch();                      // flushes when a line since the last flush is not an agreement
  void finish();                         // writes the count lines
  long lines() const { return lines_; }

 private:
  void check();  // throws WriteError when the stream failed
  std::string path_;
  std::ofstream out_;
  ResultsFilter filter_;
  ResultsCounts counts_;
  long lines_ = 0;
  bool finding_unflushed_ = false;
};

}  // namespace bc
