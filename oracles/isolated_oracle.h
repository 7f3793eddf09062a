// Crash and hang isolation: an oracle whose library runs in a long-lived forked worker process, so that a
// SIGSEGV, SIGFPE, abort or endless loop in the library becomes the case's outcome (crash with the signal's name,
// or timeout) instead of the end of the run. Design and measured cost: docs/notes/crash-isolation.md.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "oracles/oracle.h"

namespace bc {

// Wraps the oracle `factory` builds. The factory is called in the worker, never in this process; the worker is
// forked (fork only, no exec) on the first call of run(), name() or version(), and again after every crash or
// timeout (by the next submit() or run()). Each case crosses a pipe as to_json(Case) and comes back as
// to_json(Outcome), so the wrapper returns what the inner oracle returns, as far as those two round trips are
// lossless.
//
// Cases given to submit() are queued to the worker at once, so it computes ahead; run() reads their answers in
// order (answers to queued cases that are not run are dropped). A worker that dies while a case is the oldest
// unanswered one died on that case, unless it was killed from outside (SIGKILL) or was gone before the case
// reached it: then the case runs again alone in a fresh worker, and that answer is its outcome.
//
// run() answers
//   - the inner oracle's outcome;
//   - crash, detail "SIGSEGV", "SIGFPE", "SIGABRT", "SIGBUS", "SIGILL", "signal N" or "exit status N", when the
//     worker died on the case;
//   - timeout, detail "no answer within N ms", when the worker gave no answer within `timeout` (it is killed);
// and throws std::runtime_error where the inner oracle would have thrown (the exception's what() is kept), or when
// the case does not survive case_from_json(to_json(c)) (an invalid case), or when the factory throws. submit()
// may start a fresh worker (waiting up to `timeout`, and at least 1 s, for it) and throws when the factory does.
// name() and version() throw std::runtime_error when the worker cannot build the oracle at all.
//
// Not thread-safe, like the oracles themselves: one caller at a time, and the wrapper should be used from the
// thread that first uses it (the worker is killed when that thread ends: PR_SET_PDEATHSIG).
//
// With OnSigfpe::recover, a SIGFPE raised on the thread that runs the case (an integer division by zero in a
// single-threaded library) ends that case, not the worker: the worker answers crash "SIGFPE", exactly what its
// death would have given, and goes on without a fork; what the case had allocated is leaked, and the worker is
// replaced after kSigfpeRecoveries of them (docs/notes/crash-isolation.md, "SIGFPE without a fork"). Only for a
// library that holds no lock and no thread while it computes: a case cut short must leave nothing half done.
enum class OnSigfpe { die, recover };
constexpr long kSigfpeRecoveries = 64;
std::unique_ptr<Oracle> make_isolated_oracle(std::function<std::unique_ptr<Oracle>()> factory,
                                             std::chrono::milliseconds timeout, OnSigfpe on_sigfpe = OnSigfpe::die);

}  // namespace bc
