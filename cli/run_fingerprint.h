// A run's fingerprint: what must be equal for two shards to be parts of one run. Each part is a 16-digit hex
// stable_hash (FNV-1a) of a canonical text:
//   "flags":           the command, --seed, --cases, --time, the properties in order, --no-replay (through the
//                      corpus list), the shrink budget, --shrink, --no-isolation, --timeout-ms, --results;
//   "corpus":          the contents of the replayed corpus files in order, the --case texts and --reproduce tokens;
//   "declarations":    the declarations file's content ("none" with --no-known) and the ids of those this
//                      processor lacks a feature for (inactive here: harness/processor.h);
//   "implementations": every voter's name and version, broadcheck's commit included.
// Left out: --out, --shard, -q, --save and timing. A file that cannot be read hashes as "unreadable: PATH".
#pragma once

#include <map>
#include <string>

#include "run/run_options.h"

namespace bc {

std::map<std::string, std::string> run_fingerprint(const RunOptions& options,
                                                   const std::map<std::string, std::string>& versions);

}  // namespace bc
