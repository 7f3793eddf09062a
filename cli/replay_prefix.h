// The start of a finding's replay and reproduce commands (run/replay_commands.h): the running broadcheck by its
// absolute path, the voters (--config or --no-config, each --oracle with its folder), the declarations (--known FILE
// or --no-known, absolute) and the flags that change a verdict, so that the command gives the run's verdict from
// any folder.
#pragma once

#include <string>
#include <vector>

#include "cli/external_implementations.h"
#include "run/run_options.h"

namespace bc {

// "'/abs/broadcheck' replay --config /abs/broadcheck.json --oracle ... --known /abs/known_divergences.jsonl": the
// start of every replay command of a run judged by `config` ("" when none was read) and `oracles` (as parsed, in
// order) with `options`' declarations and flags.
std::string replay_prefix(const RunOptions& options, const std::string& config, const std::vector<ExternalSpec>& oracles);

}  // namespace bc
