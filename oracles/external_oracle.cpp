#include "oracles/external_oracle.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <stdexcept>
#include <utility>

#include "harness/shell_quote.h"

namespace bc {
namespace {

constexpr size_t kMaxLine = size_t{1} << 28;  // an answer longer than 256 MB is a runaway adapter

}  // namespace

// The adapter's process and the parent's ends of its pipes, with a line reader over its output.
struct ExternalOracle::Process {
  pid_t pid = -1;
  int to = -1, from = -1;
  std::string buffer;

  // The next whole line already read (without its newline): done, timeout (none yet) or failed (a runaway line).
  Io take_line(std::string& line) {
    const size_t nl = buffer.find('\n');
    if (nl == std::string::npos) return buffer.size() > kMaxLine ? Io::failed : Io::timeout;
    line.assign(buffer, 0, nl);
    buffer.erase(0, nl + 1);
    return Io::done;
  }

  // One read() into the buffer: done (bytes came, or none yet), eof or failed.
  Io fill() {
    char chunk[1 << 16];
    const ssize_t got = ::read(from, chunk, sizeof chunk);
    if (got > 0) buffer.append(chunk, static_cast<size_t>(got));
    else if (got == 0) return Io::eof;
    else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return Io::failed;
    return Io::done;
  }

  // Reads one line (without its newline) before the deadline.
  Io read_line(std::string& line, Clock::time_point deadline) {
    for (;;) {
      const Io t = take_line(line);
      if (t != Io::timeout) return t;
      const Io w = wait_for(from, POLLIN, deadline);
      if (w != Io::done) return w;
      const Io r = fill();
      if (r != Io::done) return r;
    }
  }

  Io write_line(const std::string& line, Clock::time_point deadline) {
    SigpipeBlock block;
    const Io w = write_all(to, line + "\n", &deadline);
    if (w == Io::eof) block.swallow();
    return w;
  }

  // Closes the pipes, kills the process (a no-op for one that already exited) and returns how it ended.
  std::string reap(bool kill_first) {
    close_registered(to);
    close_registered(from);
    ::kill(-pid, SIGKILL);  // whatever the adapter's shell started and left behind
    if (kill_first) ::kill(pid, SIGKILL);
    int status = 0;
    pid_t r;
    while ((r = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    pid = -1;
    if (r < 0) return "lost (no exit status)";
    // A shell that ran the adapter as its child reports the adapter's death by signal N as exit status 128 + N.
    if (WIFEXITED(status) && WEXITSTATUS(status) > 128 && WEXITSTATUS(status) < 128 + 32)
      return signal_name(WEXITSTATUS(status) - 128) + " (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    return describe_wait_status(status);
  }
};

ExternalOracle::ExternalOracle(std::string name, std::string command, std::chrono::milliseconds timeout)
    : name_(std::move(name)), command_(std::move(command)), timeout_(timeout) {
  if (timeout_.count() <= 0) throw std::invalid_argument("external oracle: the timeout must be positive");
}

ExternalOracle::~ExternalOracle() { stop(); }

std::string ExternalOracle::version() const {
  const Capabilities& caps = capabilities();
  return caps.name + " " + caps.version;
}

const Capabilities& ExternalOracle::capabilities() const {
  if (!caps_ || !process_)
    if (std::optional<std::string> failed = start())
      throw std::runtime_error("the " + name_ + " adapter (" + command_ + ") did not start: " + *failed);
  return *caps_;
}

std::optional<std::string> ExternalOracle::start() const {
  stop();
  const pid_t parent = ::getpid();
  PipeEnds ends;
  const pid_t pid = fork_with_pipes(ends);
  if (pid == 0) {
    // The adapter: its stdin and stdout are the pipes (dup2 leaves the copies open across exec), default signals,
    // and it dies with this process.
    ::dup2(ends.in, 0);
    ::dup2(ends.out, 1);
    ::setpgid(0, 0);  // its own process group: the shell's children go with it when it is killed
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) ::signal(s, SIG_DFL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    ::execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  process_ = std::make_unique<Process>();
  process_->pid = pid;
  process_->to = ends.out;
  process_->from = ends.in;

  const Clock::time_point deadline = Clock::now() + timeout_;
  std::string line;
  Io r = process_->write_line(hello_line(), deadline);
  if (r == Io::done) r = process_->read_line(line, deadline);
  std::string why;
  if (r == Io::timeout) why = "no handshake within " + std::to_string(timeout_.count()) + " ms";
  else if (r != Io::done) why = "it ended before its handshake (" + process_->reap(true) + ")";
  if (why.empty()) {
    try {
      Capabilities caps = capabilities_from_hello(line);
      if (caps_ && (caps.name != caps_->name || caps.version != caps_->version))
        why = "a restarted adapter says it is " + caps.name + " " + caps.version;
      else caps_ = std::move(caps);
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  if (why.empty()) {
    last_answer_ = Clock::now();
    failed_start_.reset();  // an earlier failure is no case's outcome once an adapter runs
    return std::nullopt;
  }
  stop();
  return why;
}

void ExternalOracle::stop() const {
  sent_ = 0;  // a fresh adapter is sent the queue again
  outbox_.clear();
  if (!process_) return;
  if (process_->pid >= 0) {
    // EOF on its input asks the adapter to exit; it gets a moment, then SIGKILL.
    close_registered(process_->to);
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(500);
    std::string ignored;
    while (process_->read_line(ignored, deadline) == Io::done) {
    }
    process_->reap(true);
  }
  process_.reset();
}

Outcome ExternalOracle::lost(const std::string& why) const {
  stop();
  return crash_outcome(name_ + " adapter: " + why);
}

void ExternalOracle::submit(const Case& c) {
  if (!caps_ || undeclared(*caps_, c)) return;
  for (const Submitted& q : queue_)
    if (same_case(q.c, c)) return;
  queue_.push_back({c});
  if (!process_) {
    if (failed_start_) return;  // the next case run has that failure: one try per case
    failed_start_ = start();
    if (failed_start_) return;
  }
  send_queued(queue_.size(), true);
  flush();
}

std::optional<std::string> ExternalOracle::start_for_run() {
  if (failed_start_) return std::exchange(failed_start_, std::nullopt);
  return start();
}

Outcome ExternalOracle::run(const Case& c) {
  if (!process_ || !caps_)
    if (std::optional<std::string> failed = start_for_run()) return lost("did not start: " + *failed);
  if (std::optional<std::string> why = undeclared(*caps_, c)) return Outcome::unsupported_because(*why);
  size_t at = 0;
  while (at < queue_.size() && !same_case(queue_[at].c, c)) ++at;
  if (at == queue_.size()) queue_.push_back({c});
  for (size_t k = 0; k < at; ++k) answer_head();  // submitted, then not run: answers nobody waits for
  return answer_head();
}

Outcome ExternalOracle::answer_head() {
  if (resolved_ == 0) {
    Reading r = read_oldest(queue_.size());
    if (!r.failed || r.suspects <= 1) {  // an answer, or a failure only this case can have caused
      queue_.pop_front();
      while (resolved_ < queue_.size() && queue_[resolved_].answer) ++resolved_;  // the rest of its request's
      return std::move(r.outcome);
    }
    reattribute(r.suspects, r.outcome);
  }
  --resolved_;
  Outcome o = std::move(*queue_.front().answer);
  queue_.pop_front();
  return o;
}

ExternalOracle::Reading ExternalOracle::read_oldest(size_t upto) {
  if (!process_ || !caps_)
    if (std::optional<std::string> failed = start_for_run()) return {lost("did not start: " + *failed), false, 0};
  send_queued(upto);
  const size_t in_hand = sent_;
  const Submitted& head = queue_[resolved_];
  const size_t n = head.in_request;
  std::string line;
  // Each case of a request has the whole timeout: a batch of n has n times it, from the answer before it.
  const Io r = exchange(line, std::max(head.sent, last_answer_) + timeout_ * static_cast<long>(n));
  if (r == Io::timeout) {
    stop();
    Outcome o = timeout_outcome(timeout_);
    o.detail = name_ + " adapter: " + o.detail;
    return {std::move(o), true, in_hand};
  }
  if (r == Io::eof) return {lost("exited (" + process_->reap(false) + ")"), true, in_hand};
  if (r != Io::done) return {lost("unreadable output (a line over 256 MB or a read error)"), true, n};
  std::vector<const Case*> cases;
  for (size_t k = 0; k < n; ++k) cases.push_back(&queue_[resolved_ + k].c);
  std::vector<Outcome> got;
  try {
    got = outcomes_from_answer(line, head.id, cases);
  } catch (const std::exception& e) {
    // A malformed answer to a batch is no one case's yet: its cases run again alone, as after a death.
    return {lost(std::string("malformed answer: ") + e.what()), true, n};
  }
  sent_ -= n;
  for (size_t k = 1; k < n; ++k) queue_[resolved_ + k].answer = std::move(got[k]);
  return {std::move(got[0]), false, 0};
}

void ExternalOracle::reattribute(size_t suspects, const Outcome& death) {
  // An adapter may read ahead, so any case in its hands may have killed it (and any case of a batch may have garbled
  // its answer): each suspect runs again alone, oldest first, in a fresh adapter, until one fails alone. Those cases
  // keep their alone answers; the ones after the culprit were never answered and go back to the queue.
  for (size_t k = 0; k < suspects; ++k) {
    stop();  // sent_ = 0: only queue_[k] is sent below
    const Reading alone = read_oldest(resolved_ + 1);
    queue_[k].answer = alone.outcome;
    ++resolved_;
    if (alone.failed) return;
  }
  // The death happened and did not recur: it is not swallowed but given to the oldest case, as an adapter sent one
  // case at a time would most likely have shown it, saying so; the run's re-runs report it as flaky.
  Outcome o = death;
  o.detail += "; not reproduced when the " + std::to_string(suspects) +
              " cases in the adapter's hands ran again alone, each in a fresh adapter";
  queue_.front().answer = std::move(o);
}

void ExternalOracle::send_queued(size_t upto, bool whole_only) {
  const size_t end = std::min(upto, queue_.size());
  const size_t most = caps_ && caps_->batch ? kBatch : 1;
  std::vector<const Case*> batch;
  while (resolved_ + sent_ < end) {
    const size_t first = resolved_ + sent_;
    const size_t n = std::min(end - first, most);
    if (whole_only && n < most) return;
    const int64_t id = next_id_++;
    if (n == 1) {
      outbox_ += request_line(queue_[first].c, id);
    } else {
      batch.clear();
      for (size_t k = first; k < first + n; ++k) batch.push_back(&queue_[k].c);
      outbox_ += batch_line(batch, id);
    }
    outbox_ += '\n';
    const Clock::time_point now = Clock::now();
    for (size_t k = first; k < first + n; ++k) {
      queue_[k].id = id;
      queue_[k].in_request = k == first ? n : 0;
      queue_[k].sent = now;
    }
    sent_ += n;
  }
}

void ExternalOracle::flush() const {
  if (outbox_.empty() || !process_ || process_->to < 0) return;
  SigpipeBlock block;
  const ssize_t n = ::write(process_->to, outbox_.data(), outbox_.size());
  if (n > 0) {
    outbox_.erase(0, static_cast<size_t>(n));
  } else if (n < 0 && errno == EPIPE) {  // gone: its answer pipe says so (EOF) when the answer is read
    block.swallow();
    outbox_.clear();
  }
}

Io ExternalOracle::exchange(std::string& line, Clock::time_point deadline) {
  for (;;) {
    flush();
    const Io t = process_->take_line(line);
    if (t == Io::done) last_answer_ = Clock::now();
    if (t != Io::timeout) return t;
    if (outbox_.empty()) {
      // A lone round trip (shrinking, a case not submitted) spins briefly, as before the queue; with a queue the
      // adapter answers at its computing pace, and a spinning parent would take its core (as the isolated workers).
      const Io w = wait_for(process_->from, POLLIN, deadline, sent_ > 1 ? Spin::never : Spin::first);
      if (w != Io::done) return w;
    } else {  // an adapter blocked on writing its answers must not wait for us while we wait for it
      pollfd fds[2] = {{process_->from, POLLIN, 0}, {process_->to, POLLOUT, 0}};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left < 0) return Io::timeout;
      if (::poll(fds, 2, static_cast<int>(std::min<long long>(left + 1, INT_MAX))) < 0 && errno != EINTR)
        return Io::failed;
      if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    }
    const Io r = process_->fill();
    if (r != Io::done) return r;
  }
}

std::vector<Outcome> ExternalOracle::run_batch(const std::vector<Case>& cases) {
  if (!process_ || !caps_) start();  // submit() queues only to a running adapter; a failed start is run()'s outcome
  for (const Case& c : cases) submit(c);
  std::vector<Outcome> out;
  for (const Case& c : cases) out.push_back(run(c));
  return out;
}

std::string external_reproduction(const std::string& command, const Case& c) {
  return "printf '%s\\n' " + shell_quote(hello_line()) + " " + shell_quote(request_line(c, 1)) + " | " + command +
         "\n";
}

}  // namespace bc
