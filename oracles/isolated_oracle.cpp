#include "oracles/isolated_oracle.h"

#include "oracles/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <climits>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace bc {
namespace {

using Factory = std::function<std::unique_ptr<Oracle>()>;

// ---- Wire format ------------------------------------------------------------------------------------------------
// A frame is a 4-byte length (host order: both ends are this very binary) followed by that many bytes: one JSON
// value, encoded as CBOR (nlohmann's binary encoding of the same JSON value) rather than as text. Text would throw
// on an error message that is not valid UTF-8 (nlohmann's dump() refuses it, and a library's message may quote
// raw bytes) and would write NaN or infinity (a case's scalars) as null; CBOR keeps both, and is faster.
//
// Parent to worker: to_json(case).
// Worker to parent: first {"name", "version"} (or {"factory_error"}) once the inner oracle is built, then one
// answer per case: {"outcome": to_json(outcome)}, {"exception": what()} or {"bad_case": why}.

constexpr uint32_t kMaxFrame = 1u << 30;  // anything larger is a corrupt stream, not an answer

std::string frame(const nlohmann::json& j) {
  std::string out(4, '\0');
  nlohmann::json::to_cbor(j, out);
  if (out.size() - 4 > kMaxFrame) throw std::runtime_error("isolated oracle: message too large for a frame");
  const uint32_t n = static_cast<uint32_t>(out.size() - 4);
  std::memcpy(out.data(), &n, 4);
  return out;
}

// Reads frames from a stream. With a deadline the fd is non-blocking and each read waits with poll() first;
// without (the worker), reads block.
class FrameReader {
 public:
  Io next(int fd, std::string& body, const Clock::time_point* deadline) {
    for (;;) {
      if (buffer_.size() >= 4) {
        uint32_t n;
        std::memcpy(&n, buffer_.data(), 4);
        if (n > kMaxFrame) return Io::failed;
        if (buffer_.size() >= 4 + static_cast<size_t>(n)) {
          body.assign(buffer_, 4, n);
          buffer_.erase(0, 4 + static_cast<size_t>(n));
          return Io::done;
        }
      }
      if (deadline) {
        const Io w = wait_for(fd, POLLIN, *deadline);
        if (w != Io::done) return w;
      }  // the worker blocks: an idle worker spinning would take a core from the one computing
      char chunk[1 << 16];
      const ssize_t got = ::read(fd, chunk, sizeof chunk);
      if (got > 0) buffer_.append(chunk, static_cast<size_t>(got));
      else if (got == 0) return Io::eof;
      else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return Io::failed;
    }
  }
  void clear() { buffer_.clear(); }

 private:
  std::string buffer_;
};

// ---- The worker -------------------------------------------------------------------------------------------------

[[noreturn]] void worker_main(int in, int out, pid_t parent, const Factory& factory) noexcept {
  try {
    // Signals: a crash must show as the signal that caused it, whatever handlers the parent installed; SIGINT and
    // SIGTERM go to the whole process group from a terminal or a CI runner, and the parent handles them (it stops
    // the run, then shuts this worker down), so the worker ignores them and never dies in the middle of a case
    // for that reason. If the parent dies instead, the kernel kills the worker (PR_SET_PDEATHSIG), so that a
    // worker stuck in a loop is never left behind.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int s : {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT, SIGPIPE, SIGCHLD}) sigaction(s, &dfl, nullptr);
    struct sigaction ign = dfl;
    ign.sa_handler = SIG_IGN;
    for (int s : {SIGINT, SIGTERM}) sigaction(s, &ign, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);  // the parent died before the line above
    // No core files: a crashing case is expected here, and dumping a LibTorch-sized process takes seconds.
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);

    std::unique_ptr<Oracle> inner;
    try {
      inner = factory();
      if (!inner) throw std::runtime_error("the factory returned no oracle");
    } catch (const std::exception& e) {
      write_all(out, frame({{"factory_error", e.what()}}), nullptr);
      _exit(0);
    }
    if (write_all(out, frame({{"name", inner->name()}, {"version", inner->version()}}), nullptr) != Io::done) _exit(0);

    FrameReader reader;
    std::string body;
    for (;;) {
      if (reader.next(in, body, nullptr) != Io::done) _exit(0);  // EOF: the parent is done with this worker
      nlohmann::json answer;
      std::optional<Case> c;
      try {
        c = case_from_json(nlohmann::json::from_cbor(body));
      } catch (const std::exception& e) {
        answer = {{"bad_case", e.what()}};
      }
      if (c) {
        try {
          answer = {{"outcome", to_json(inner->run(*c))}};
        } catch (const std::exception& e) {
          answer = {{"exception", e.what()}};
        } catch (...) {
          answer = {{"exception", "an exception that is not a std::exception"}};
        }
      }
      if (write_all(out, frame(answer), nullptr) != Io::done) _exit(0);
    }
  } catch (...) {
    _exit(70);  // never unwind into the parent's code: this is a copy of it
  }
}

// ---- The parent's side ------------------------------------------------------------------------------------------

class IsolatedOracle : public Oracle {
 public:
  IsolatedOracle(Factory factory, std::chrono::milliseconds timeout)
      : factory_(std::move(factory)), timeout_(timeout) {
    if (!factory_) throw std::invalid_argument("make_isolated_oracle: no factory");
    if (timeout_.count() <= 0) throw std::invalid_argument("make_isolated_oracle: the timeout must be positive");
  }
  ~IsolatedOracle() override { shut_down(); }
  IsolatedOracle(const IsolatedOracle&) = delete;
  IsolatedOracle& operator=(const IsolatedOracle&) = delete;

  // The name and version come from the worker's first message, taken once: this process never builds the inner
  // oracle, so it never holds the library's global state (LibTorch's thread pools and settings, say) and forks
  // every worker from a process the library has not touched; and a library that crashes while it is being built
  // crashes in the worker. The price: the first name() or version() starts the worker, a little before the first
  // run() would have.
  std::string name() const override {
    identify();
    return name_;
  }
  std::string version() const override {
    identify();
    return version_;
  }

  void submit(const Case& c) override {
    if (pid_ < 0 || submitted_) return;
    const std::string request = frame(to_json(c));
    const Clock::time_point deadline = Clock::now() + timeout_;
    Io w;
    {
      SigpipeBlock block;
      w = write_all(to_worker_, request, &deadline);
      if (w == Io::eof) block.swallow();
    }
    // On any failure run() starts over and finds out what happened (it has the retry and the messages).
    if (w == Io::done) submitted_ = Submitted{request, deadline};
  }

  Outcome run(const Case& c) override {
    const std::string request = frame(to_json(c));
    std::optional<Submitted> early = std::move(submitted_);
    submitted_.reset();
    if (early && early->request != request) {  // submitted, then not run: its answer is read and dropped
      std::string ignored;
      if (reader_.next(from_worker_, ignored, &early->deadline) != Io::done) kill_worker();
      early.reset();
    }
    for (int attempt = 0;; ++attempt) {
      if (pid_ < 0)
        if (std::optional<Outcome> failed = start()) return *failed;
      Clock::time_point deadline = Clock::now() + timeout_;
      Io w = Io::done;
      if (early && attempt == 0) {
        deadline = early->deadline;
      } else {
        SigpipeBlock block;
        w = write_all(to_worker_, request, &deadline);
        if (w == Io::eof) block.swallow();
      }
      if (w == Io::timeout) return kill_worker();
      if (w != Io::done) {
        // The worker was gone before it read this case (killed from outside, or a library thread crashed after
        // the last answer): not this case's doing. Say so, and give the case a fresh worker, once.
        const std::string how = reap();
        std::cerr << "broadcheck: the " << name_ << " oracle's worker died between cases (" << how
                  << "); starting a new one\n";
        if (attempt == 0) continue;
        return crash_outcome(how);
      }
      std::string body;
      const Io r = reader_.next(from_worker_, body, &deadline);
      if (r == Io::timeout) return kill_worker();
      if (r == Io::eof) return crash_outcome(reap());
      const nlohmann::json answer = decode(r, body);
      if (answer.contains("outcome")) return outcome_from_json(answer["outcome"]);
      if (answer.contains("exception"))
        throw std::runtime_error(answer["exception"].get<std::string>());
      throw std::runtime_error("isolated " + name_ + " oracle: the case " + describe(c) +
                               " does not survive case_from_json(to_json(case)): " +
                               answer.value("bad_case", std::string("unreadable answer")));
    }
  }

 private:
  void identify() const {
    if (identified_) return;
    if (pid_ < 0)
      if (std::optional<Outcome> failed = start())
        throw std::runtime_error("isolated oracle: the worker could not build the oracle: " + summarize(*failed) +
                                 (failed->detail.empty() ? "" : " (" + failed->detail + ")"));
  }

  // Forks a worker and waits (up to the timeout) for its first message. Returns the outcome of a failure to build
  // the oracle (crash or timeout), nothing on success; throws when the factory throws.
  std::optional<Outcome> start() const {
    const pid_t parent = ::getpid();
    PipeEnds ends;
    const pid_t pid = fork_with_pipes(ends);
    if (pid == 0) {
      // A library that ends in std::terminate (xtensor's noexcept norm_l2 meeting a broadcast error) aborts the
      // worker, which is that case's crash outcome; the default handler's text would only clutter the run's console.
      std::set_terminate([] { std::abort(); });
      worker_main(ends.in, ends.out, parent, factory_);
    }
    pid_ = pid;
    to_worker_ = ends.out;
    from_worker_ = ends.in;
    reader_.clear();

    const Clock::time_point deadline = Clock::now() + timeout_;
    std::string body;
    const Io r = reader_.next(from_worker_, body, &deadline);
    if (r == Io::timeout) return kill_worker();
    if (r == Io::eof) return crash_outcome(reap());
    const nlohmann::json hello = decode(r, body);
    if (hello.contains("factory_error")) {
      shut_down();
      throw std::runtime_error("isolated oracle: the factory threw: " + hello["factory_error"].get<std::string>());
    }
    if (!identified_) {
      name_ = hello.at("name").get<std::string>();
      version_ = hello.at("version").get<std::string>();
      identified_ = true;
    }
    return std::nullopt;
  }

  // A frame from the worker as JSON. A broken stream (a read error, a frame that does not decode: something else
  // wrote into the pipe) is the harness's problem, not the library's: the worker is replaced and run() throws.
  nlohmann::json decode(Io r, const std::string& body) const {
    if (r == Io::done) {
      try {
        return nlohmann::json::from_cbor(body);
      } catch (const std::exception&) {
      }
    }
    reap();
    throw std::runtime_error("isolated oracle: unreadable answer from the worker");
  }

  // The worker is dead or must go: close its pipes, make sure it is gone, collect its status.
  std::string reap() const {
    close_registered(to_worker_);
    close_registered(from_worker_);
    // EOF on its pipe almost always means it died; SIGKILL covers a worker that merely closed the pipe. A zombie
    // ignores the signal and keeps its status, and its pid cannot have been reused before waitpid().
    ::kill(pid_, SIGKILL);
    int status = 0;
    pid_t r;
    while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    if (r < 0) return "worker lost (no exit status: SIGCHLD ignored?)";
    return describe_wait_status(status);
  }

  Outcome kill_worker() const {
    reap();
    return timeout_outcome(timeout_);
  }

  // Clean shutdown: EOF on the case pipe ends the worker's loop; wait (up to the timeout) for it to close the
  // answer pipe by exiting, kill it if it does not, and reap it.
  void shut_down() const noexcept {
    if (pid_ < 0) return;
    close_registered(to_worker_);
    const Clock::time_point deadline = Clock::now() + timeout_;
    char scratch[4096];
    for (;;) {
      if (wait_for(from_worker_, POLLIN, deadline) != Io::done) {
        ::kill(pid_, SIGKILL);
        break;
      }
      const ssize_t n = ::read(from_worker_, scratch, sizeof scratch);
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) break;
    }
    close_registered(from_worker_);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  Factory factory_;
  std::chrono::milliseconds timeout_;
  // Mutable: name() and version() are const in the interface but may have to start the worker.
  mutable pid_t pid_ = -1;
  mutable int to_worker_ = -1, from_worker_ = -1;
  mutable FrameReader reader_;
  mutable bool identified_ = false;
  mutable std::string name_, version_;
  struct Submitted {
    std::string request;
    Clock::time_point deadline;
  };
  std::optional<Submitted> submitted_;  // a case sent by submit() whose answer run() has yet to read
};

}  // namespace

std::unique_ptr<Oracle> make_isolated_oracle(std::function<std::unique_ptr<Oracle>()> factory,
                                             std::chrono::milliseconds timeout) {
  return std::make_unique<IsolatedOracle>(std::move(factory), timeout);
}

}  // namespace bc
