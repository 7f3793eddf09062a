// `broadcheck merge DIR... --out DIR`: combines the outputs of shards of one run (same seed and flags, --shard
// I/N for I = 0..N-1) into the results, summary, JUnit and HTML an unsharded run would have written, apart from
// timing fields and the command line (the merge's own).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/run_record.h"

namespace bc {

// Merges summaries: counts add, each finding key keeps the shard's finding with the earliest first case (the one
// the unsharded run would have shrunk) and the hits of all shards; `arguments` (the merge's own command line)
// becomes the summary's. Throws std::runtime_error on mismatched runs.
RunSummary merge_summaries(const std::vector<RunSummary>& shards, const std::vector<std::string>& arguments);

// What merge_runs does short of writing the reports: the merged results.jsonl in `out`, and the merged summary;
// nothing after saying on stderr what is wrong with the inputs. When results.jsonl cannot be written (a full disk),
// `unwritten` says why (its path and the system's reason) and the summary is still returned. With `whole_set` false
// the shards need not be a whole I/N set (the jobs of a run that is itself a shard, cli/jobs.h); every other check
// holds.
std::optional<RunSummary> merge_into(const std::vector<std::string>& dirs, const std::string& out,
                                     const std::vector<std::string>& arguments, bool whole_set, std::string& unwritten);

// Reads DIR/summary.json of each shard and refuses (kExitBadInput, one line per problem) unless they are exactly
// one I/N set of one run (cli/shard_set.h); then reads each DIR/results.jsonl and writes the merged set into
// `out`: case lines in run order (seq) through the shards' results filter, so that they are the ones the unsharded
// run kept, then the count lines added up. Returns the exit code the merged
// run has (as `run` computes it), or kExitBadInput with a message when a shard cannot be read.
int merge_runs(const std::vector<std::string>& dirs, const std::string& out, bool quiet,
               const std::vector<std::string>& arguments);

}  // namespace bc
