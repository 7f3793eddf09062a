// `broadcheck shrink --case '<json>'`: minimise any case (from the corpus, from a bug report) at the level of
// shapes while it keeps the same signature and verdict, with no generator state. Prints the minimal case as one
// JSON line on stdout and the story on stderr. Exit: 0 the case agrees or is known, 1 a new discrepancy, 2 bad input.
#pragma once

#include <string>

namespace bc {
int shrink_command(const std::string& case_text, const std::string& declarations, int budget, bool quiet);
}
