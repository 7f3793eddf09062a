// `broadcheck lint FILE...`: checks corpus files and declaration files without running any case.
//
// Contract: a file named known_divergences.jsonl, or given with --known, is read as declarations
// (harness/known_divergence.h); every other file as a corpus (harness/corpus.h, ids unique across all of them).
// Every bad line of every file is printed as "FILE:LINE: reason" on stderr (FILE:0 for a file that cannot be
// read: missing, a directory), then one line of counts. Returns 0 when every line is good, kExitBadInput otherwise.
#pragma once

#include <string>
#include <vector>

namespace bc {

int lint_command(const std::vector<std::string>& files, const std::vector<std::string>& declaration_files, bool quiet);

}  // namespace bc
