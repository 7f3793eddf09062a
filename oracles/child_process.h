// What the oracles that talk to another process share (the forked worker of oracles/isolated_oracle.h and the
// adapter program of oracles/external_oracle.h): waiting on a pipe with a deadline, writing without dying of
// SIGPIPE, the list of parent pipe ends every forked child must close, and the outcome of a child that died or
// went silent.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "harness/outcome.h"

namespace bc {

using Clock = std::chrono::steady_clock;

enum class Io { done, eof, timeout, failed };

// The ends of the two pipes between a parent and its child that one side holds: `in` it reads, `out` it writes.
struct PipeEnds {
  int in = -1, out = -1;
};

// Opens a close-on-exec pipe each way, flushes this process's buffered output (else a child that flushes it would
// write it twice) and forks. In the parent it returns the child's pid with the parent's ends in `ends`, registered
// (register_fd) and non-blocking; the child's ends are closed. In the child it returns 0 with the child's ends in
// `ends`, blocking, and every registered parent end (of this and every other child) closed. Throws
// std::system_error, closing what it opened.
pid_t fork_with_pipes(PipeEnds& ends);

// In a forked child: the kernel kills it with SIGKILL when its parent dies (PR_SET_PDEATHSIG), and if `parent`
// has died already (before the request), it exits with `exit_code` at once.
void die_with_parent(pid_t parent, int exit_code);

// Waits until `fd` is ready for `events` (POLLIN, POLLOUT) or the deadline passes, or a stop is requested (then
// Io::timeout); EINTR just waits on. A deadline that has passed already still looks once without waiting (time
// spent on another child is not this one's). By default
// it spins briefly first: a lone round trip is two wake-ups of a sleeping process, which cost more than a case.
// Without the spin (Spin::never) it sleeps at once: a child that has a queue of cases answers at its computing
// pace, and on two cores a spinning parent would take the core it computes on.
enum class Spin { first, never };
Io wait_for(int fd, short events, Clock::time_point deadline, Spin spin = Spin::first);

// A run that is stopping (SIGINT, SIGTERM) says so here, from its signal handler (async-signal-safe). Every wait on
// a child then gives up within kStopCheck (Io::timeout) instead of waiting out a hanging case's timeout, and no new
// child is started to run a case again alone. The outcome of a case cut short that way is not that case's own:
// the run drops it.
void request_stop(bool stop);
bool stop_requested();
// Every wait on a child polls for at most this long at a time, so that a stop request is seen whichever thread the
// signal interrupted.
inline constexpr int kStopCheckMs = 100;

// Writes all of `bytes`. EPIPE (the reader is gone) is eof. With a deadline the fd is non-blocking.
Io write_all(int fd, const std::string& bytes, const Clock::time_point* deadline);

// Blocks SIGPIPE in the calling thread while the parent writes to a child that may have died; after an EPIPE,
// swallow() takes back the SIGPIPE that write raised, so that a dead child means EPIPE, not a dead run. (When
// the caller had SIGPIPE blocked already, the signal stays pending as a direct write would have left it.)
// Process-wide signal dispositions are left alone: the run owns them.
class SigpipeBlock {
 public:
  SigpipeBlock();
  void swallow();
  ~SigpipeBlock();
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_, old_;
};

// The parent's ends of every child's pipes. A worker forked while another child runs would inherit those ends:
// it would hold the other child's input open (that child would never see EOF, and its owner would wait for
// nothing). So every parent end is listed here, and each newly forked worker closes them all.
void register_fd(int fd);
void close_registered(int& fd);  // closes, unlists and sets fd to -1; nothing for -1

// "SIGSEGV", "signal 40": a signal's name.
std::string signal_name(int sig);
// "SIGSEGV", "exit status 3", ...: how a child ended, from waitpid's status.
std::string describe_wait_status(int status);

Outcome crash_outcome(std::string detail);
Outcome timeout_outcome(std::chrono::milliseconds timeout);

}  // namespace bc
