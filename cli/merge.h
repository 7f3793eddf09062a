// `broadcheck merge DIR... --out DIR`: combines the outputs of shards of one run (same seed and flags, --shard
// I/N for I = 0..N-1) into the results, summary, JUnit and HTML an unsharded run would have written, apart from
// timing fields and the command line.
#pragma once

#include <string>
#include <vector>

#include "harness/run_record.h"

namespace bc {

// Merges summaries: counts add, each finding key keeps the shard's finding with the earliest first case (the one
// the unsharded run would have shrunk) and the hits of all shards; the command line is the first shard's without
// --shard. Throws std::runtime_error on mismatched runs.
RunSummary merge_summaries(const std::vector<RunSummary>& shards);

// Reads DIR/summary.json and DIR/results.jsonl of each shard, writes the merged set into `out`; returns the exit
// code the merged run has (as `run` computes it), or kExitBadInput with a message when a shard cannot be read.
// Case lines go in run order (seq) through the shards' results filter, so that they are the ones the unsharded
// run kept; the count lines are added up.
int merge_runs(const std::vector<std::string>& dirs, const std::string& out, bool quiet);

}  // namespace bc
