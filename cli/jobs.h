// `broadcheck run --jobs N`: one run spread over N processes. Each job is a shard of the run (a run that is itself
// shard I of M gives its jobs shards I + M*j of M*N), with its own oracle workers, writing into a folder of its
// own under --out; the parent then merges them as `broadcheck merge` does. So the outputs are those one process
// would have written for the same seed and --cases, timing fields aside, and a finding is shrunk in the job that
// made it. Returns the exit code `run` would. A job killed before it wrote its outputs has its shard run again
// (cli/job_pool.h); a shard that still has none is missing: the other shards are merged and reported, the summary
// names the missing shard (internal_error, job_deaths) and the run exits 3, as an incomplete run.
#pragma once

#include "run/run_options.h"

namespace bc {

// The default for --jobs: the cores this process may run on (at least 1).
int available_cores();
// --jobs takes at most this many per available core: beyond, jobs only compete for the cores.
constexpr int kJobsPerCore = 4;

int run_jobs(const RunOptions& options, int jobs);

}  // namespace bc
