// How a finding is seen again, from any folder, with the verdict of the run that found it: its replay and
// reproduce commands start with the run's replay prefix (cli/replay_prefix.h: the voters, the declarations, the
// flags that change a verdict) and carry an --out of the finding's own; an adapter it names odd gets a shell
// command of its own.
#pragma once

#include <string>

#include "harness/run_record.h"

namespace bc {

// "finding-" and 12 hex digits of the case's canonical form: the id --save gives a finding's case, and the
// name of its replay's output folder.
std::string finding_id(const Case& c);

// Sets f's replay_command (its minimal case), reproduce_command (when it has a reproduce token),
// adapter_commands (each adapter among the odd ones out) and regression_draft. `prefix` is the run's
// RunOptions::replay_prefix.
void describe_reproduction(Finding& f, const std::string& prefix);

}  // namespace bc
