// junit.xml for CI test reporters: one test case per property x op family, a failure per new signature.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {
std::string junit_xml(const RunSummary& summary);
void write_junit(const RunSummary& summary, const std::string& path);  // throws std::runtime_error
}  // namespace bc
