// report.html: one self-contained file (no network, no external scripts, styles or fonts) for the person who
// has to decide who is wrong. Everything from outside (messages, notes) is escaped.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {
std::string html_escape(const std::string& text);
std::string html_report(const RunSummary& summary);
void write_html_report(const RunSummary& summary, const std::string& path);  // throws std::runtime_error
// The operands' shapes right-aligned, one row each (then the ok result shapes), as an HTML table: a size-1 dim
// stretched by another operand is marked "↑ (1→n)", a position where two sizes other than 1 differ "✗".
std::string shape_picture_html(const Case& c, const Outcomes& outcomes);
}  // namespace bc
