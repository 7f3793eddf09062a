// How a finding is seen again, from any folder, with the verdict of the run that found it: its replay and
// reproduce commands start with the running broadcheck by its absolute path and carry the voters (--config or
// --no-config, each --oracle with its folder), the declarations (--known FILE or --no-known, absolute), the flags
// that change a verdict and an --out of the finding's own; an adapter it names odd gets a shell command of its own.
#pragma once

#include <string>
#include <vector>

#include "cli/external_implementations.h"
#include "cli/run.h"

namespace bc {

// "finding-" and 12 hex digits of the case's canonical form: the id --save gives a finding's case, and the
// name of its replay's output folder.
std::string finding_id(const Case& c);

// "'/abs/broadcheck' replay --config /abs/broadcheck.json --oracle ... --known /abs/known_divergences.jsonl": the
// start of every replay command of a run judged by `config` ("" when none was read) and `oracles` (as parsed, in
// order) with `options`' declarations and flags.
std::string replay_prefix(const RunOptions& options, const std::string& config, const std::vector<ExternalSpec>& oracles);

// Sets f's replay_command (its minimal case), reproduce_command (when it has a reproduce token),
// adapter_commands (each adapter among the odd ones out) and regression_draft. `prefix` is replay_prefix's.
void describe_reproduction(Finding& f, const std::string& prefix);

}  // namespace bc
