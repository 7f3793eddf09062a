#include "oracles/external_oracle.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

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

  // Reads one line (without its newline) before the deadline.
  Io read_line(std::string& line, Clock::time_point deadline) {
    for (;;) {
      const size_t nl = buffer.find('\n');
      if (nl != std::string::npos) {
        line.assign(buffer, 0, nl);
        buffer.erase(0, nl + 1);
        return Io::done;
      }
      if (buffer.size() > kMaxLine) return Io::failed;
      const Io w = wait_for(from, POLLIN, deadline);
      if (w != Io::done) return w;
      char chunk[1 << 16];
      const ssize_t got = ::read(from, chunk, sizeof chunk);
      if (got > 0) buffer.append(chunk, static_cast<size_t>(got));
      else if (got == 0) return Io::eof;
      else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return Io::failed;
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
  if (why.empty()) return std::nullopt;
  stop();
  return why;
}

void ExternalOracle::stop() const {
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
  if (submitted_ || !process_ || !caps_ || undeclared(*caps_, c)) return;
  const int64_t id = next_id_++;
  Submitted s{request_line(c, id), id, Clock::now() + timeout_};
  if (process_->write_line(s.request, s.deadline) == Io::done) submitted_ = std::move(s);
}

Outcome ExternalOracle::run(const Case& c) {
  if (!process_ || !caps_)
    if (std::optional<std::string> failed = start()) return lost("did not start: " + *failed);
  if (std::optional<std::string> why = undeclared(*caps_, c)) return Outcome::unsupported_because(*why);
  std::optional<Submitted> early = std::move(submitted_);
  submitted_.reset();
  int64_t id = 0;
  Clock::time_point deadline;
  if (early && early->request == request_line(c, early->id)) {
    id = early->id;
    deadline = early->deadline;
  } else {
    std::string ignored;  // submitted, then not run: its answer is read and dropped
    if (early && process_->read_line(ignored, early->deadline) != Io::done) return lost("lost a dropped answer");
    id = next_id_++;
    deadline = Clock::now() + timeout_;
    const Io w = process_->write_line(request_line(c, id), deadline);
    if (w == Io::timeout) {
      stop();
      return timeout_outcome(timeout_);
    }
    if (w != Io::done) return lost("exited before reading the case (" + process_->reap(true) + ")");
  }
  std::string line;
  const Io r = process_->read_line(line, deadline);
  if (r == Io::timeout) {
    stop();
    Outcome o = timeout_outcome(timeout_);
    o.detail = name_ + " adapter: " + o.detail;
    return o;
  }
  if (r == Io::eof) return lost("exited (" + process_->reap(false) + ")");
  if (r != Io::done) return lost("unreadable output (a line over 256 MB or a read error)");
  try {
    return outcomes_from_answer(line, id, {c}).front();
  } catch (const std::exception& e) {
    return lost(std::string("malformed answer: ") + e.what());
  }
}

std::vector<Outcome> ExternalOracle::run_batch(const std::vector<Case>& cases) {
  std::vector<Outcome> out(cases.size());
  std::vector<size_t> sent;
  std::vector<Case> batch;
  if (!process_ || !caps_) start();
  for (size_t k = 0; k < cases.size(); ++k) {
    std::optional<std::string> why = caps_ ? undeclared(*caps_, cases[k]) : std::nullopt;
    if (why) {
      out[k] = Outcome::unsupported_because(*why);
    } else {
      sent.push_back(k);
      batch.push_back(cases[k]);
    }
  }
  bool answered = false;
  if (process_ && caps_ && caps_->batch && batch.size() > 1 && !submitted_) {
    const int64_t id = next_id_++;
    const Clock::time_point deadline = Clock::now() + timeout_;
    std::string line;
    if (process_->write_line(batch_line(batch, id), deadline) == Io::done &&
        process_->read_line(line, deadline) == Io::done) {
      try {
        std::vector<Outcome> got = outcomes_from_answer(line, id, batch);
        for (size_t k = 0; k < sent.size(); ++k) out[sent[k]] = std::move(got[k]);
        answered = true;
      } catch (const std::exception&) {
      }
    }
    if (!answered) stop();  // the one-by-one runs below start a fresh adapter
  }
  if (!answered)
    for (size_t k : sent) out[k] = run(cases[k]);
  return out;
}

std::string external_reproduction(const std::string& command, const Case& c) {
  return "printf '%s\\n' " + shell_quote(hello_line()) + " " + shell_quote(request_line(c, 1)) + " | " + command +
         "\n";
}

}  // namespace bc
