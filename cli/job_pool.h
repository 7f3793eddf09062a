// The processes of `run --jobs N` (cli/jobs.h). Each job is a forked copy of this process that runs one shard of
// the run into a folder of its own and dies with this process (PR_SET_PDEATHSIG), so a parent killed outright takes
// its jobs, and through them their workers and adapters, with it. A job killed by a signal it cannot handle
// (SIGKILL from the out-of-memory killer, a crash of broadcheck itself) has its shard run once more in a new job;
// a shard that still has no outputs is missing, and the run that merges the others is incomplete.
#pragma once

#include <string>
#include <vector>

#include "run/run_options.h"

namespace bc {

struct JobsEnded {
  std::vector<std::string> dirs;     // the folders of the jobs that wrote their outputs, in job order
  std::vector<std::string> failed;   // "job 1 (shard 1/2, exit status 3)": jobs that wrote outputs after an internal error
  std::vector<std::string> deaths;   // each job that ended without its outputs, and what became of its shard
  std::vector<std::string> missing;  // "job 1 (shard 1/2)": the shards with no outputs because their jobs died
  // "job 1 (shard 1/2) could not write its outputs: PATH: cannot write: No space left on device": the shards with no
  // outputs because their jobs could not write them (the job says why through a pipe: the disk may be full).
  std::vector<std::string> unwritten;
};

// Starts `jobs` jobs (job j writes into base/j), forwards SIGINT and SIGTERM sent to this process alone to them,
// runs a killed job's shard again (within what is left of --time), and returns when every job has ended. Throws
// std::system_error when a job cannot be forked (the jobs started are stopped and reaped first).
JobsEnded run_job_processes(const RunOptions& options, int jobs, const std::string& base);

}  // namespace bc
