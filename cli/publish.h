// Publishing a finished run: its reports written and moved into place, the CI's step summary, --save's corpus
// lines and the verdict on the console.
#pragma once

#include <string>

#include "harness/run_record.h"
#include "run/run_options.h"

namespace bc {

class OutputFolder;  // cli/outputs.h

// The end of every run (one process, the jobs' merge, `broadcheck merge`): the reports into `outputs`' staging
// folder and moved into place, summary.md appended to the file $GITHUB_STEP_SUMMARY names (not by a job; a file
// that cannot be appended to is a warning), new findings appended to options.save, the verdict printed (not by a
// job). Returns the run's exit code, or 2 when the findings cannot be saved. When the reports cannot be written, or
// `unwritten` says why results.jsonl could not be (a full disk), no report is published: the staging folder is
// removed, the verdict and the reason (the system's: "No space left on device") go to the console, and it returns
// 2 (3 after an internal error).
int publish_run(const RunSummary& summary, OutputFolder& outputs, const RunOptions& options,
                const std::string& unwritten = "");

// Writes summary.json, summary.md, junit.xml and report.html for a finished summary into `dir` (results.jsonl is
// streamed). `out` is where they end up (--out; `dir` may be its staging folder): summary.md names the report there.
void write_reports(const RunSummary& summary, const std::string& dir, const std::string& out);

}  // namespace bc
