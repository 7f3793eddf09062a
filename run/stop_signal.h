// SIGINT and SIGTERM during a run: caught and remembered, and every wait on a worker or an adapter told to give up
// (oracles/child_process.h), so that the run stops cleanly and reports what it found.
#pragma once

namespace bc {

void catch_stop_signals();    // from now on, until release_stop_signals()
int release_stop_signals();   // the default handlers back; returns the signal caught (0: none)
int stop_signal();            // the signal caught so far (0: none)

}  // namespace bc
