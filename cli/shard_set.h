// Whether the summaries handed to `broadcheck merge` are exactly one I/N set of one run: every shard 0..N-1
// once, all of the same N, the same command and seed, and the same fingerprint (cli/run_fingerprint.h). Each
// problem is one sentence naming the folders, e.g. "duplicate shard 1/4 in A and B", "missing shard 2/4",
// "shard B was run with different flags, declarations than A". An unsharded run ("") counts as shard 0/1.
#pragma once

#include <string>
#include <vector>

#include "harness/run_record.h"

namespace bc {

struct ShardInput {
  std::string dir;
  RunSummary summary;
};

// Empty when the shards may be merged; otherwise every problem found, in a stable order.
std::vector<std::string> shard_set_problems(const std::vector<ShardInput>& shards);

}  // namespace bc
