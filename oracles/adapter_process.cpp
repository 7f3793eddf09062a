#include "oracles/adapter_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <system_error>

namespace bc {

AdapterProcess::AdapterProcess(const std::string& command) {
  int err[2];
  if (::pipe2(err, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  register_fd(err[0]);  // every child forked from now on closes it, this adapter included
  const pid_t parent = ::getpid();
  PipeEnds ends;
  pid_t pid = -1;
  try {
    pid = fork_with_pipes(ends);
  } catch (...) {
    close_registered(err[0]);
    ::close(err[1]);
    throw;
  }
  if (pid == 0) {
    // The adapter: its stdin, stdout and stderr are the pipes (dup2 leaves the copies open across exec), default
    // signals, and it dies with this process.
    ::dup2(ends.in, 0);
    ::dup2(ends.out, 1);
    ::dup2(err[1], 2);
    ::setpgid(0, 0);  // its own process group: the shell's children go with it when it is killed
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) ::signal(s, SIG_DFL);
    die_with_parent(parent, 127);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  ::close(err[1]);
  ::fcntl(err[0], F_SETFL, ::fcntl(err[0], F_GETFL) | O_NONBLOCK);
  pid_ = pid;
  to_ = ends.out;
  from_ = ends.in;
  err_ = err[0];
}

AdapterProcess::~AdapterProcess() {
  if (pid_ >= 0) reap(true);
  close_registered(err_);
}

Io AdapterProcess::take_line(std::string& line, size_t limit) {
  const size_t nl = buffer_.find('\n');
  if (nl == std::string::npos) return buffer_.size() > limit ? Io::failed : Io::timeout;
  if (nl > limit) return Io::failed;
  line.assign(buffer_, 0, nl);
  buffer_.erase(0, nl + 1);
  return Io::done;
}

Io AdapterProcess::fill() {
  char chunk[1 << 16];
  const ssize_t got = ::read(from_, chunk, sizeof chunk);
  if (got > 0) buffer_.append(chunk, static_cast<size_t>(got));
  else if (got == 0) return Io::eof;
  else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return Io::failed;
  return Io::done;
}

Io AdapterProcess::wait(Clock::time_point deadline, bool reading, bool writing, Spin spin) {
  if (reading && spin == Spin::first &&
      wait_for(from_, POLLIN, std::min(deadline, Clock::now() + std::chrono::milliseconds(1)), Spin::first) == Io::done)
    return Io::done;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd fds[3] = {{err_, POLLIN, 0}, {reading ? from_ : -1, POLLIN, 0}, {writing ? to_ : -1, POLLOUT, 0}};
    const int r = ::poll(fds, 3, static_cast<int>(std::clamp<long long>(left, 0, kStopCheckMs)));
    if (r < 0 && errno != EINTR) return Io::failed;
    if (r > 0 && fds[0].revents) drain_stderr();
    if (r > 0 && (fds[1].revents || fds[2].revents)) return Io::done;
    if (left <= 0 && r >= 0) return Io::timeout;  // looked once past the deadline
    if (stop_requested()) return Io::timeout;     // the run is stopping (oracles/child_process.h)
  }
}

Io AdapterProcess::read_line(std::string& line, Clock::time_point deadline, size_t limit) {
  for (;;) {
    const Io t = take_line(line, limit);
    if (t != Io::timeout) return t;
    const Io w = wait(deadline, true, false);
    if (w != Io::done) return w;
    const Io r = fill();
    if (r != Io::done) return r;
  }
}

Io AdapterProcess::write_line(const std::string& line, Clock::time_point deadline) {
  std::string bytes = line + "\n";
  while (!bytes.empty()) {
    if (to_ < 0) return Io::eof;
    write_some(bytes);
    if (bytes.empty()) break;
    const Io w = wait(deadline, false, true);
    if (w != Io::done) return w;
  }
  return to_ < 0 ? Io::eof : Io::done;
}

void AdapterProcess::write_some(std::string& bytes) {
  if (bytes.empty() || to_ < 0) return;
  SigpipeBlock block;
  const ssize_t n = ::write(to_, bytes.data(), bytes.size());
  if (n > 0) {
    bytes.erase(0, static_cast<size_t>(n));
  } else if (n < 0 && errno == EPIPE) {  // gone: its output says so (EOF) when the answer is read
    block.swallow();
    bytes.clear();
    close_registered(to_);
  }
}

void AdapterProcess::close_input() { close_registered(to_); }

std::string AdapterProcess::reap(bool kill_first) {
  close_registered(to_);
  close_registered(from_);
  ::kill(-pid_, SIGKILL);  // whatever the adapter's shell started and left behind
  if (kill_first) ::kill(pid_, SIGKILL);
  int status = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (r < 0) return "lost (no exit status)";
  // A shell that ran the adapter as its child reports the adapter's death by signal N as exit status 128 + N.
  if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 32)
    return signal_name(WEXITSTATUS(status) - 128) + " (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  return describe_wait_status(status);
}

void AdapterProcess::drain_stderr() {
  char chunk[1 << 16];
  while (err_ >= 0) {
    const ssize_t got = ::read(err_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got == 0) close_registered(err_);  // every writer is gone
      return;
    }
    stderr_bytes_ += static_cast<size_t>(got);
    tail_.append(chunk, static_cast<size_t>(got));
    if (tail_.size() > kStderrTail) tail_.erase(0, tail_.size() - kStderrTail);
  }
}

std::string AdapterProcess::stderr_note() {
  drain_stderr();
  std::string text = tail_;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.empty()) return "";
  const bool cut = stderr_bytes_ > tail_.size();
  return "; stderr" + (cut ? " (the last " + std::to_string(kStderrTail) + " of " + std::to_string(stderr_bytes_) + " bytes)" : std::string()) +
         ": " + text;
}

}  // namespace bc
