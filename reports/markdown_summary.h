// summary.md: the run in a few lines of Markdown for a CI job's page (GitHub's $GITHUB_STEP_SUMMARY, a merge
// request note). Contract: a heading with the verdict in words (reports/verdict.h's line, as at the top of
// report.html: every verdict that holds, worst first), the command line, seed, cases, duration and exit code;
// the cases per verdict; each new finding (at most 50, then how many more) with its signature, verdict, hits,
// minimal case, replay command and reproduce command; the number of known divergences; the stale declarations;
// the scoreboard (each implementation's cases run, agreeing, departing declared or new, and unsupported: in all,
// then per op family, folded); the input errors; and the path of report.html. Every text from the run is put in a code span or block long
// enough for the backticks it contains, so nothing in it is read as Markdown.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

std::string markdown_summary(const RunSummary& summary, const std::string& report_path);

// Writes DIR/summary.md, naming `report_path` as where the report is (a run writes into a staging folder first).
// Throws std::runtime_error naming the file when it cannot be written.
void write_markdown_summary(const RunSummary& summary, const std::string& dir, const std::string& report_path);

// Appends `markdown` and a blank line to `step_summary` (the file a GitHub Actions step names in
// $GITHUB_STEP_SUMMARY). Returns "" or, when the file cannot be appended to, a warning naming it: a job's page
// without the summary does not change the run's verdict.
std::string append_step_summary(const std::string& markdown, const std::string& step_summary);

}  // namespace bc
