// The corpus writer behind --save: each new finding's minimal case appended to a corpus file, in corpus form.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

// Appends each new generated finding's minimal case to `path` (its id the one its replay command names, tagged
// "finding", a generated case of another check than the corpus' naming its property), skipping cases already
// there (by canonical form). Returns how many were added; throws std::runtime_error when the file cannot be written.
long save_findings(const RunSummary& summary, const std::string& path);

}  // namespace bc
