// How the debug and sanitized xtensor adapters (oracles/xtensor_adapter.cpp) end on undefined behaviour: the first
// lines of the report on stderr, then SIGABRT, so that broadcheck's adapter layer makes them the case's `crash`
// detail (it keeps the last 4096 bytes of stderr: docs/protocol.md, "When things go wrong").
#pragma once

#include <string>

namespace bc {

// The lines of a report that are kept, and the characters kept of each (a frame of xtensor's names is long).
constexpr int kReportLines = 12;
constexpr std::size_t kReportLineChars = 300;

// Whether an exception's text is one of xtensor's assertions (xexception.hpp with XTENSOR_ENABLE_ASSERT:
// XTENSOR_ASSERT's "assertion failed", XTENSOR_ASSERT_MSG's "Assertion error!", XTENSOR_TRY's "check failed").
bool is_xtensor_assertion(const std::string& message);
// The first kReportLines lines of `report`, each cut to kReportLineChars.
std::string first_lines(const std::string& report);
// Writes first_lines(report) on stderr and aborts.
[[noreturn]] void die_with_report(const std::string& report);
// In a build with AddressSanitizer: its and UndefinedBehaviorSanitizer's reports are written to a memory file, and
// when one ends the process its first lines go to stderr. Nothing in other builds.
void report_sanitizers_first_lines();

}  // namespace bc
