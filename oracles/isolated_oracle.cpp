#include "oracles/isolated_oracle.h"

#include "harness/console.h"
#include "oracles/child_process.h"

#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <climits>
#include <cstdint>
#include <cstring>
#include <deque>
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

// The frame of a case, remembered for the next call: every isolated oracle is handed the same case in turn (the
// run submits each case to all of them), and the second builds no JSON.
const std::string& case_frame(const Case& c) {
  thread_local std::optional<Case> last;
  thread_local std::string last_frame;
  if (!last || !same_case(*last, c)) {
    last_frame = frame(to_json(c));
    last = c;
  }
  return last_frame;
}

// Splits a byte stream into frames. The worker reads blocking (an idle worker spinning would take a core from the
// one computing); the parent reads what is there and polls (IsolatedOracle::exchange).
class FrameReader {
 public:
  enum class Take { frame, partial, corrupt };
  // The next whole frame already read, if there is one.
  Take take(std::string& body) {
    if (buffer_.size() < 4) return Take::partial;
    uint32_t n;
    std::memcpy(&n, buffer_.data(), 4);
    if (n > kMaxFrame) return Take::corrupt;
    if (buffer_.size() < 4 + static_cast<size_t>(n)) return Take::partial;
    body.assign(buffer_, 4, n);
    buffer_.erase(0, 4 + static_cast<size_t>(n));
    return Take::frame;
  }
  // One read() into the buffer: done (bytes came), eof, failed, or timeout (nothing there yet, non-blocking fd).
  Io fill(int fd) {
    char chunk[1 << 16];
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got > 0) {
      buffer_.append(chunk, static_cast<size_t>(got));
      return Io::done;
    }
    if (got == 0) return Io::eof;
    return errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK ? Io::timeout : Io::failed;
  }
  // The next frame, waiting for it (up to the deadline if there is one, else blocking).
  Io next(int fd, std::string& body, const Clock::time_point* deadline) {
    for (;;) {
      const Take t = take(body);
      if (t == Take::frame) return Io::done;
      if (t == Take::corrupt) return Io::failed;
      if (deadline) {
        const Io w = wait_for(fd, POLLIN, *deadline);
        if (w != Io::done) return w;
      }
      const Io r = fill(fd);
      if (r == Io::eof || r == Io::failed) return r;
    }
  }
  void clear() { buffer_.clear(); }

 private:
  std::string buffer_;
};

// ---- The worker -------------------------------------------------------------------------------------------------

// SIGFPE recovery (OnSigfpe::recover): where a SIGFPE on the case's thread jumps to, while a case runs.
sigjmp_buf g_case_start;
volatile sig_atomic_t g_in_case = 0;
pid_t g_case_thread = 0;

extern "C" void sigfpe_handler(int) {
  if (g_in_case && ::gettid() == g_case_thread) {
    g_in_case = 0;
    siglongjmp(g_case_start, 1);
  }
  // Anywhere else the signal is what it always was: the worker dies of it (a trap re-executes and traps again).
  signal(SIGFPE, SIG_DFL);
  raise(SIGFPE);
}

// The inner oracle's answer to `c`: {"outcome"}, {"exception"} or, when a SIGFPE cut the case short and the
// worker recovers from it, {"crash": "SIGFPE"}.
nlohmann::json answer_case(Oracle& inner, const Case& c, OnSigfpe on_sigfpe) {
  if (on_sigfpe == OnSigfpe::recover) {
    if (sigsetjmp(g_case_start, 1) != 0) return {{"crash", signal_name(SIGFPE)}};  // the signal mask restored
    g_case_thread = ::gettid();
    g_in_case = 1;
  }
  nlohmann::json answer;
  try {
    answer = {{"outcome", to_json(inner.run(c))}};
  } catch (const std::exception& e) {
    answer = {{"exception", e.what()}};
  } catch (...) {
    answer = {{"exception", "an exception that is not a std::exception"}};
  }
  g_in_case = 0;
  return answer;
}

[[noreturn]] void worker_main(int in, int out, pid_t parent, const Factory& factory, OnSigfpe on_sigfpe) noexcept {
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
    if (on_sigfpe == OnSigfpe::recover) {
      struct sigaction fpe = dfl;
      fpe.sa_handler = sigfpe_handler;
      sigaction(SIGFPE, &fpe, nullptr);
    }
    struct sigaction ign = dfl;
    ign.sa_handler = SIG_IGN;
    for (int s : {SIGINT, SIGTERM}) sigaction(s, &ign, nullptr);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    die_with_parent(parent, 0);
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
      if (c) answer = answer_case(*inner, *c, on_sigfpe);
      if (write_all(out, frame(answer), nullptr) != Io::done) _exit(0);
    }
  } catch (...) {
    _exit(70);  // never unwind into the parent's code: this is a copy of it
  }
}

// ---- The parent's side ------------------------------------------------------------------------------------------

class IsolatedOracle : public Oracle {
 public:
  // A worker's start (the fork, then building the oracle, a few ms) has at least this long, whatever the case
  // timeout: --timeout-ms bounds the library's calls, and a case timeout of 1 ms made every start a failure, and the
  // run an internal error. A factory that hangs still times out, after this long.
  static constexpr std::chrono::milliseconds kStartBudget{1000};

  IsolatedOracle(Factory factory, std::chrono::milliseconds timeout, OnSigfpe on_sigfpe)
      : factory_(std::move(factory)), timeout_(timeout), on_sigfpe_(on_sigfpe) {
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

  // Queues the case behind those already queued (the worker computes ahead while this process does other work),
  // unless it is queued already. When the last worker crashed or was retired, a fresh one starts here, so that the
  // cases submitted after it still reach the worker together, not one by one as each is run. A start that fails
  // here is the outcome of the next case run (which then does not try again), and until that case has it the cases
  // only wait in the queue: a worker that cannot start is still tried once per case. Before the first worker, run()
  // starts it.
  void submit(const Case& c) override {
    for (const Pending& p : pending_)
      if (same_case(p.c, c)) return;
    pending_.push_back({c, case_frame(c), Clock::now()});
    if (pid_ < 0) {
      if (!identified_ || failed_start_) return;
      failed_start_ = start();
      if (failed_start_) return;
    }
    send_pending(pending_.size());
    flush();
  }

  // The answer to `c`: answers to cases queued before it are read and dropped; a case not queued is sent now.
  Outcome run(const Case& c) override {
    size_t at = 0;
    while (at < pending_.size() && !same_case(pending_[at].c, c)) ++at;
    if (at == pending_.size()) pending_.push_back({c, case_frame(c), Clock::now()});
    for (size_t k = 0; k < at; ++k) {
      try {
        answer_head(c);
      } catch (const std::exception&) {  // an answer nobody waits for any more
      }
    }
    return answer_head(c);
  }

 private:
  // Reads the answer to the oldest queued case (and dequeues it), starting a worker and sending what is queued
  // first when there is none. Cases are separate frames answered in order, so a worker that dies before it answers
  // died on this case: a crash outcome. Unless it was killed from outside (SIGKILL: the out-of-memory killer, say)
  // or was gone before the case reached it: then the case runs again, alone, in a fresh worker, and that answer is
  // its outcome (docs/notes/crash-isolation.md, "Batches").
  Outcome answer_head(const Case& c) {
    std::string earlier_death;  // how the worker died before this case ran again alone
    for (int attempt = 0;; ++attempt) {
      if (pid_ < 0) {
        std::optional<Outcome> failed = failed_start_ ? std::exchange(failed_start_, std::nullopt) : start();
        if (failed) {
          pending_.pop_front();
          return *failed;
        }
      }
      send_pending(attempt == 0 ? pending_.size() : 1);
      std::string body;
      const Io r = exchange(body, std::max(pending_.front().sent, last_answer_) + timeout_);
      if (r == Io::timeout) {
        pending_.pop_front();
        return kill_worker();
      }
      if (r == Io::eof) {
        const std::string how = reap();
        // SIGKILL comes from outside (the out-of-memory killer, a user), never from a library's own fault.
        const bool blameless = lost_on_write_ || how == signal_name(SIGKILL);
        if (attempt == 0 && blameless) {
          earlier_death = how;
          continue;
        }
        pending_.pop_front();
        return crash_outcome(how);
      }
      if (!earlier_death.empty())
        console_message("broadcheck: the " + name_ + " oracle's worker died (" + earlier_death + ") before it " +
                        "answered a case that, run again alone in a fresh worker, did not crash it\n");
      pending_.pop_front();
      const nlohmann::json answer = decode(r, body);
      // A SIGFPE the worker survived (OnSigfpe::recover); enough of them retire it once it holds no case.
      if (answer.contains("crash") && ++recovered_ >= kSigfpeRecoveries) retiring_ = true;
      retire_when_idle();
      if (pid_ >= 0) send_pending(pending_.size());  // the rest of the queue, held back while a case ran alone
      if (answer.contains("outcome")) return outcome_from_json(answer["outcome"]);
      if (answer.contains("crash")) return crash_outcome(answer["crash"].get<std::string>());
      if (answer.contains("exception"))
        throw std::runtime_error(answer["exception"].get<std::string>());
      throw std::runtime_error("isolated " + name_ + " oracle: the case " + describe(c) +
                               " does not survive case_from_json(to_json(case)): " +
                               answer.value("bad_case", std::string("unreadable answer")));
    }
  }

  // A worker that has recovered from kSigfpeRecoveries SIGFPEs (and leaked what each case had allocated) is shut
  // down once it holds no case; the next case starts a fresh one.
  void retire_when_idle() {
    if (retiring_ && sent_ == 0 && outbox_.empty()) shut_down();
  }

  // Moves the queued cases up to the `upto`-th into the bytes to write (each timed from now).
  void send_pending(size_t upto) {
    for (; sent_ < std::min(upto, pending_.size()); ++sent_) {
      outbox_ += pending_[sent_].request;
      pending_[sent_].sent = Clock::now();
    }
  }

  // Writes what the pipe takes now. A worker that is gone shows as EOF on the answer pipe later.
  void flush() {
    if (outbox_.empty()) return;
    SigpipeBlock block;
    const ssize_t n = ::write(to_worker_, outbox_.data(), outbox_.size());
    if (n > 0) {
      outbox_.erase(0, static_cast<size_t>(n));
    } else if (n < 0 && errno == EPIPE) {
      block.swallow();
      lost_on_write_ = true;
      outbox_.clear();
    }
  }

  // The next answer frame, writing queued cases while waiting (a worker blocked on a full answer pipe must not
  // wait for us while we wait for it).
  Io exchange(std::string& body, Clock::time_point deadline) {
    for (;;) {
      flush();
      const FrameReader::Take t = reader_.take(body);
      if (t == FrameReader::Take::frame) {
        ++answered_;
        last_answer_ = Clock::now();
        if (sent_ > 0) --sent_;
        return Io::done;
      }
      if (t == FrameReader::Take::corrupt) return Io::failed;
      if (outbox_.empty()) {
        // The worker answers at its computing pace; on two cores a spinning parent takes the core it needs (spinning
        // made a run 7% slower here, shrinking's lone round trips included: docs/notes/crash-isolation.md).
        const Io w = wait_for(from_worker_, POLLIN, deadline, Spin::never);
        if (w != Io::done) return w;
      } else {
        pollfd fds[2] = {{from_worker_, POLLIN, 0}, {to_worker_, POLLOUT, 0}};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (::poll(fds, 2, static_cast<int>(std::clamp<long long>(left + 1, 0, kStopCheckMs))) < 0 && errno != EINTR)
          return Io::failed;
        if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
          if (left < 0 || stop_requested()) return Io::timeout;  // looked once past the deadline: no answer waiting
          continue;
        }
      }
      const Io r = reader_.fill(from_worker_);
      if (r == Io::eof || r == Io::failed) return r;
    }
  }

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
      worker_main(ends.in, ends.out, parent, factory_, on_sigfpe_);
    }
    pid_ = pid;
    to_worker_ = ends.out;
    from_worker_ = ends.in;
    reader_.clear();
    sent_ = 0;
    outbox_.clear();
    answered_ = 0;
    lost_on_write_ = false;
    recovered_ = 0;
    retiring_ = false;

    const std::chrono::milliseconds budget = std::max(timeout_, kStartBudget);
    const Clock::time_point deadline = Clock::now() + budget;
    std::string body;
    const Io r = reader_.next(from_worker_, body, &deadline);
    if (r == Io::timeout) {
      reap();
      return timeout_outcome(budget);
    }
    if (r == Io::eof) return crash_outcome(reap());
    const nlohmann::json hello = decode(r, body);
    if (hello.contains("factory_error")) {
      shut_down();
      throw std::runtime_error("isolated oracle: the factory threw: " + hello["factory_error"].get<std::string>());
    }
    last_answer_ = Clock::now();
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
    if (pid_ <= 0) return "worker lost (no worker)";  // never kill(-1), which signals every process it can
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
  OnSigfpe on_sigfpe_;
  // Mutable: name() and version() are const in the interface but may have to start the worker.
  mutable pid_t pid_ = -1;
  mutable int to_worker_ = -1, from_worker_ = -1;
  mutable FrameReader reader_;
  mutable bool identified_ = false;
  std::optional<Outcome> failed_start_;  // how submit()'s start failed: the next case run gets it, untried again
  mutable std::string name_, version_;
  // The cases sent (or to be sent) whose answers are yet to be read, oldest first; the first `sent_` of them are
  // in the pipe or in `outbox_`, the bytes not yet written.
  struct Pending {
    Case c;               // what run() is asked for (cheaper to compare than the frame is to build)
    std::string request;  // its frame
    Clock::time_point sent;
  };
  std::deque<Pending> pending_;
  mutable size_t sent_ = 0;
  mutable std::string outbox_;
  mutable Clock::time_point last_answer_;  // when the current worker last answered (a queued case's clock starts then)
  mutable long answered_ = 0;       // answers from the current worker
  mutable bool lost_on_write_ = false;  // the current worker was gone when a case was written to it
  mutable long recovered_ = 0;          // SIGFPEs the current worker survived
  mutable bool retiring_ = false;       // it survived enough: replaced once it holds no case
};

}  // namespace

std::unique_ptr<Oracle> make_isolated_oracle(std::function<std::unique_ptr<Oracle>()> factory,
                                             std::chrono::milliseconds timeout, OnSigfpe on_sigfpe) {
  return std::make_unique<IsolatedOracle>(std::move(factory), timeout, on_sigfpe);
}

}  // namespace bc
