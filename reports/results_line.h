// One line of results.jsonl for a case record, written straight into a string without building a JSON tree: it
// is the only output a run makes for every case, so it is on the hot path. The line is the same JSON as
// to_json(record) (the same keys, in the same sorted order; numbers that read back to the same doubles); the test
// holds the two together.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

std::string results_line(const CaseRecord& record);

}  // namespace bc
