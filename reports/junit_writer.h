// junit.xml for CI test reporters: per property an "agreement" test case and one test case per finding signature
// (a failure when new), the run's input errors and interruption as errors, stale declarations as skipped. Contract
// in junit_writer.cpp; schema in tests/reports/junit.xsd.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {
std::string junit_xml(const RunSummary& summary);
void write_junit(const RunSummary& summary, const std::string& path);  // throws std::runtime_error
}  // namespace bc
