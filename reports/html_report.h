// report.html: one self-contained HTML5 page (no network: no external scripts, styles, fonts or images) for the
// person who has to decide who is wrong.
//
// Contract:
//  - sections, top to bottom, findings first: the header (the verdict in words and the counts of agreements, new
//    discrepancies, known divergences, crashes and timeouts), the findings (a filter bar, then the new ones, then
//    the known ones, one folding block per signature: finding_html.h), the summary and the run (when, how long,
//    command line with seed and flags, versions, cases per property and op, findings and problems, outcomes
//    other than ok and error), generator coverage (a promised class with no case is flagged MISSING), the
//    declarations (each with the findings it matched, STALE when it covered cases but matched none) and the
//    corpus input errors;
//  - the page is never wider than the window: a table that may be wide scrolls sideways inside its own box
//    (div.wide), long words and code wrap;
//  - every text from data goes through html_escape() (html_text.h); the inline style and script are constant
//    (html_assets.h); nothing relies on colour alone, and @media print hides the controls (the script opens every
//    folded block before printing);
//  - the page depends only on the summary, so `broadcheck merge` of shards renders the report of the unsharded
//    run; its size is linear in the findings, declarations, coverage classes and input errors, never in the
//    cases (results.jsonl has those).
#pragma once

#include <string>

#include "harness/run_record.h"
#include "reports/html_text.h"
#include "reports/shape_picture.h"

namespace bc {

std::string html_report(const RunSummary& summary);
void write_html_report(const RunSummary& summary, const std::string& path);  // throws std::runtime_error

}  // namespace bc
