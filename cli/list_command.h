// `broadcheck list ops|properties|kinds|oracles [--json]`: what the harness knows, derived from the op table, the
// property registry, the error kinds and the implementations (with their versions), for people and for scripts.
#pragma once

#include <string>

namespace bc {

// Prints the list to stdout; returns the exit code (2 for an unknown list name).
int list_command(const std::string& what, bool json);

}  // namespace bc
