#include "oracles/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <system_error>

namespace bc {
namespace {

// A round trip through the worker is two wake-ups of a sleeping process, which cost 100 us or more each on a
// busy virtual machine; a case costs far less. So each side first polls without sleeping for a short while (the
// answer usually comes within it) and only then sleeps. The spin is bounded, so an idle worker costs nothing.
constexpr auto kSpin = std::chrono::microseconds(300);

bool spin_until_ready(int fd, short events) {
  const auto until = Clock::now() + kSpin;
  do {
    pollfd p{fd, events, 0};
    if (::poll(&p, 1, 0) > 0) return true;
  } while (Clock::now() < until);
  return false;
}

// Never destroyed: an oracle held in a static (a test's, say) closes its pipes after the other statics are gone.
std::mutex& fds_mutex() {
  static std::mutex* m = new std::mutex;
  return *m;
}
std::vector<int>& parent_fds() {
  static std::vector<int>* fds = new std::vector<int>;
  return *fds;
}
std::vector<int> registered_fds() {
  std::lock_guard<std::mutex> lock(fds_mutex());
  return parent_fds();
}
}  // namespace

void die_with_parent(pid_t parent, int exit_code) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) _exit(exit_code);  // the parent died before the line above
}

pid_t fork_with_pipes(PipeEnds& ends) {
  int to[2], from[2];  // parent to child, child to parent
  if (::pipe2(to, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  if (::pipe2(from, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(to[0]);
    ::close(to[1]);
    throw std::system_error(e, std::generic_category(), "pipe2");
  }
  const std::vector<int> others = registered_fds();  // copied before fork: the child takes no lock
  std::cout.flush();
  std::clog.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {to[0], to[1], from[0], from[1]}) ::close(fd);
    throw std::system_error(e, std::generic_category(), "fork");
  }
  if (pid == 0) {
    ::close(to[1]);
    ::close(from[0]);
    for (int fd : others) ::close(fd);
    ends = {to[0], from[1]};
    return 0;
  }
  ::close(to[0]);
  ::close(from[1]);
  ends = {from[0], to[1]};
  for (int fd : {ends.in, ends.out}) {
    register_fd(fd);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  return pid;
}

namespace {
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
}  // namespace

void request_stop(bool stop) { g_stop.store(stop); }
bool stop_requested() { return g_stop.load(); }

Io wait_for(int fd, short events, Clock::time_point deadline, Spin spin) {
  if (spin == Spin::first && spin_until_ready(fd, events)) return Io::done;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd, events, 0};
    // Past the deadline it still looks once: a caller that waited on another child meanwhile may find its answer.
    // Each poll sleeps at most kStopCheckMs, so that a stop request is seen.
    const int r = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(left, 0, kStopCheckMs)));
    if (r > 0) return Io::done;  // readable, writable, or POLLHUP/POLLERR: the read or write that follows tells
    if (r < 0 && errno != EINTR) return Io::failed;
    if (r == 0 && left <= 0) return Io::timeout;
    if (stop_requested()) return Io::timeout;  // else the loop re-checks the deadline
  }
}

Io write_all(int fd, const std::string& bytes, const Clock::time_point* deadline) {
  size_t off = 0;
  while (off < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
    if (n >= 0) {
      off += static_cast<size_t>(n);
    } else if (errno == EINTR) {
      continue;
    } else if ((errno == EAGAIN || errno == EWOULDBLOCK) && deadline) {
      const Io w = wait_for(fd, POLLOUT, *deadline);
      if (w != Io::done) return w;
    } else {
      return errno == EPIPE ? Io::eof : Io::failed;
    }
  }
  return Io::done;
}

SigpipeBlock::SigpipeBlock() {
  sigemptyset(&pipe_);
  sigaddset(&pipe_, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
}

void SigpipeBlock::swallow() {
  if (sigismember(&old_, SIGPIPE) == 1) return;
  const timespec zero{0, 0};
  while (sigtimedwait(&pipe_, nullptr, &zero) < 0 && errno == EINTR) {
  }
}

SigpipeBlock::~SigpipeBlock() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

void register_fd(int fd) {
  std::lock_guard<std::mutex> lock(fds_mutex());
  parent_fds().push_back(fd);
}
void close_registered(int& fd) {
  if (fd < 0) return;
  {
    std::lock_guard<std::mutex> lock(fds_mutex());
    auto& fds = parent_fds();
    fds.erase(std::remove(fds.begin(), fds.end(), fd), fds.end());
  }
  ::close(fd);  // on Linux the fd is released even when close() reports EINTR: never retry
  fd = -1;
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: return "signal " + std::to_string(sig);
  }
}

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) return signal_name(WTERMSIG(status));
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "wait status " + std::to_string(status);
}

Outcome crash_outcome(std::string detail) {
  Outcome o;
  o.status = Status::crash;
  o.detail = std::move(detail);
  return o;
}

Outcome timeout_outcome(std::chrono::milliseconds timeout) {
  Outcome o;
  o.status = Status::timeout;
  o.detail = "no answer within " + std::to_string(timeout.count()) + " ms";
  return o;
}


}  // namespace bc
