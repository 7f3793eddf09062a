// summary.md: the run in a few lines of Markdown for a CI job's page (GitHub's $GITHUB_STEP_SUMMARY, a merge
// request note). Contract: a heading with the verdict in words (as report.html's header: INPUT ERRORS, INTERNAL
// ERROR, FAILED: n new finding(s), INTERRUPTED, PASSED), the command line, seed, cases, duration and exit code;
// the cases per verdict; each new finding (at most 50, then how many more) with its signature, verdict, hits,
// minimal case, replay command and reproduce command; the number of known divergences; the stale declarations;
// the input errors; and the path of report.html. Every text from the run is put in a code span or block long
// enough for the backticks it contains, so nothing in it is read as Markdown.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

std::string markdown_summary(const RunSummary& summary, const std::string& report_path);

// Writes DIR/summary.md (naming `report_path` as where the report is: a run writes into a staging folder first)
// and, when `step_summary` is not empty, appends the same text to that file (what a GitHub Actions step names in
// $GITHUB_STEP_SUMMARY). Throws std::runtime_error naming a file it cannot write.
void write_markdown_summary(const RunSummary& summary, const std::string& dir, const std::string& report_path,
                            const std::string& step_summary);

}  // namespace bc
