#include "oracles/external_oracle.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "harness/shell_quote.h"

namespace bc {
namespace {

// The failure of a read from the adapter, as words.
std::string read_failure(size_t limit) {
  return "an answer line longer than " + std::to_string(limit) +
         " bytes, the protocol's limit for its request (docs/protocol.md, \"Limits\"), or a read error";
}

}  // namespace

ExternalOracle::ExternalOracle(std::string name, std::string command, std::chrono::milliseconds timeout,
                               std::string known_version)
    : name_(std::move(name)), command_(std::move(command)), timeout_(timeout), known_version_(std::move(known_version)) {
  if (timeout_.count() <= 0) throw std::invalid_argument("external oracle: the timeout must be positive");
}

ExternalOracle::~ExternalOracle() { stop(); }

std::string ExternalOracle::version() const {
  if (!known_version_.empty()) return known_version_;  // a slow start is then a case's failure, not the run's
  const Capabilities& caps = capabilities();
  return caps.name + " " + caps.version;
}

const Capabilities& ExternalOracle::capabilities() const {
  if (!caps_ || !process_)
    if (std::optional<std::string> failed = start())
      throw std::runtime_error("the " + name_ + " adapter (" + command_ + ") did not start: " + *failed);
  return *caps_;
}

void ExternalOracle::prepare() {
  if (!process_ && !caps_ && !failed_start_) launch();
}

std::optional<std::string> ExternalOracle::start() const {
  if (!launched_) launch();
  return handshake();
}

void ExternalOracle::launch() const {
  stop();
  process_ = std::make_unique<AdapterProcess>(command_);
  history_.clear();
  history_bytes_ = answered_ = 0;
  history_whole_ = true;
  start_deadline_ = Clock::now() + timeout_;
  hello_ = process_->write_line(hello_line(), start_deadline_);
  launched_ = true;
}

std::optional<std::string> ExternalOracle::handshake() const {
  launched_ = false;
  std::string line;
  Io r = hello_;
  if (r == Io::done) r = process_->read_line(line, start_deadline_, kMaxHandshakeLine);
  std::string why;
  if (r == Io::timeout) why = "no handshake within " + std::to_string(timeout_.count()) + " ms";
  else if (r == Io::failed) why = "a handshake line longer than " + std::to_string(kMaxHandshakeLine) + " bytes";
  else if (r != Io::done) why = "it ended before its handshake (" + process_->reap(true) + ")";
  if (why.empty()) {
    try {
      Capabilities caps = capabilities_from_hello(line);
      if ((caps_ && (caps.name != caps_->name || caps.version != caps_->version)) ||
          (!known_version_.empty() && caps.name + " " + caps.version != known_version_))
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
  why += process_->stderr_note();
  stop();
  return why;
}

void ExternalOracle::stop() const {
  sent_ = 0;  // a fresh adapter is sent the queue again
  launched_ = false;
  outbox_.clear();
  if (!process_) return;
  if (process_->running()) {
    // EOF on its input asks the adapter to exit; it gets a moment, then SIGKILL.
    process_->close_input();
    const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(500);
    std::string ignored;
    while (process_->read_line(ignored, deadline, kMaxHandshakeLine) == Io::done) {
    }
    process_->reap(true);
  }
  process_.reset();
}

Outcome ExternalOracle::lost(const std::string& why) const {
  const std::string note = process_ ? process_->stderr_note() : "";
  stop();
  return crash_outcome(name_ + " adapter: " + why + note);
}

void ExternalOracle::submit(const Case& c) {
  if (!caps_) {  // the first submit starts the adapter (version() does not when the version is known)
    if (failed_start_) return;
    failed_start_ = start();
    if (failed_start_) return;
  }
  if (undeclared(*caps_, c)) return;
  for (const Submitted& q : queue_)
    if (same_case(q.c, c)) return;
  queue_.push_back({c});
  if (!process_) {
    if (failed_start_) return;  // the next case run has that failure: one try per case
    failed_start_ = start();
    if (failed_start_) return;
  }
  send_queued(queue_.size(), true);
  process_->write_some(outbox_);
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
    // An answer, or a failure that is this case's alone: it was a fresh adapter's only case, its first request.
    if (!r.failed || (r.suspects <= 1 && r.request == 1)) {
      queue_.pop_front();
      while (resolved_ < queue_.size() && queue_[resolved_].answer) ++resolved_;  // the rest of its request's
      return std::move(r.outcome);
    }
    settle(r);
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
  const size_t in_hand = sent_, request = answered_ + 1;
  const Submitted& head = queue_[resolved_];
  const size_t n = head.in_request;
  std::vector<const Case*> cases;
  for (size_t k = 0; k < n; ++k) cases.push_back(&queue_[resolved_ + k].c);
  const size_t limit = answer_line_limit(cases);
  std::string line;
  // Each case of a request has the whole timeout: a batch of n has n times it, from the answer before it.
  const Io r = exchange(line, std::max(head.sent, last_answer_) + timeout_ * static_cast<long>(n), limit);
  if (r == Io::timeout) {
    Outcome o = timeout_outcome(timeout_);
    o.detail = name_ + " adapter: " + o.detail + process_->stderr_note();
    stop();
    return {std::move(o), true, in_hand, request, n > 1};
  }
  if (r == Io::eof) return {lost("exited (" + process_->reap(false) + ")"), true, in_hand, request, n > 1};
  if (r != Io::done) return {lost(read_failure(limit)), true, n, request, n > 1};
  std::vector<Outcome> got;
  try {
    got = outcomes_from_answer(line, head.id, cases);
  } catch (const std::exception& e) {
    // A malformed answer to a batch is no one case's yet: its cases run again alone, as after a death.
    return {lost(std::string("malformed answer: ") + e.what()), true, n, request, n > 1};
  }
  ++answered_;
  sent_ -= n;
  for (size_t k = 1; k < n; ++k) queue_[resolved_ + k].answer = std::move(got[k]);
  return {std::move(got[0]), false, 0, request};
}

void ExternalOracle::settle(const Reading& failure) {
  // The failed process's requests up to the failed one, kept before a fresh adapter replaces them.
  std::vector<std::string> history = std::move(history_);
  const bool whole = history_whole_ && failure.request <= history.size();
  // An adapter may read ahead, so any case in its hands may have killed it (and any case of a batch may have garbled
  // its answer): the suspects run again, oldest first, one request each, in a fresh adapter that runs only them; the
  // first that fails there runs once more alone, a fresh adapter's first request, and fails alone if it fails again
  // (a fresh adapter for every suspect cost up to 16 starts per death). Those cases keep these answers; the ones
  // after the culprit were never answered and go back to the queue.
  stop();  // sent_ = 0: each read below sends queue_[k] alone
  for (size_t k = 0; k < failure.suspects && !stop_requested(); ++k) {
    Reading alone = read_oldest(resolved_ + 1);  // starts the fresh adapter when none runs
    if (alone.failed && alone.request > 1) alone = read_oldest(resolved_ + 1);  // it failed there, stopped: alone now
    queue_[k].answer = alone.outcome;
    ++resolved_;
    if (alone.failed) return;
  }
  if (stop_requested()) {  // the run is stopping and drops this case: no more adapters to start
    if (resolved_ == 0) {
      queue_.front().answer = failure.outcome;
      resolved_ = 1;
    }
    return;
  }
  const std::string request = std::to_string(failure.request);
  const std::string alone = "; not reproduced when the " + std::to_string(failure.suspects) +
                            " case(s) in the adapter's hands ran again one by one in a fresh adapter, any failing "
                            "there alone in another";
  const std::string again = whole ? replay(history, failure.request) : "";
  if (whole && again.empty()) {
    // The failure happened and did not recur: it is not swallowed but given to the oldest case, as an adapter sent one
    // case at a time would most likely have shown it, saying so; the run's re-runs report it as flaky.
    Outcome o = failure.outcome;
    o.detail += alone + ", nor when a fresh adapter was sent the same " + request + " request(s) again";
    queue_.front().answer = std::move(o);
    return;
  }
  // It depends on what the adapter was sent before: the adapter's fault, not its case's (which keeps its alone answer).
  AdapterFault f;
  f.oracle = name_;
  f.status = failure.outcome.status;
  f.request = static_cast<long>(failure.request);
  f.c = queue_.front().c;
  f.detail = failure.outcome.detail + " at request " + request + " of its process" + alone +
             (whole ? "; it failed again when a fresh adapter was sent the same " + request + " request(s): " + again
                    : "; its process had been sent too many requests to send them again");
  if (whole) {
    std::vector<std::string> lines(history.begin(), history.begin() + static_cast<long>(failure.request));
    f.reproduction = external_reproduction_of(command_, lines);
    if (f.reproduction.size() > kReproductionBytes) f.reproduction.clear();  // a report holds no megabytes of it
  }
  if (failure.batch && !batches_off_) {  // else every later batch would cost its cases' alone runs again
    batches_off_ = true;
    f.detail += "; it is sent no more batches";
  }
  faults_.push_back(std::move(f));
}

std::string ExternalOracle::replay(const std::vector<std::string>& history, size_t count) const {
  if (start()) return "";  // no adapter to ask: nothing recurred
  for (size_t k = 0; k < count; ++k) {
    int64_t id = 0;
    const std::vector<Case> cases = cases_of_request(history[k], id);
    std::vector<const Case*> pointers;
    for (const Case& c : cases) pointers.push_back(&c);
    const size_t limit = answer_line_limit(pointers);
    const Clock::time_point deadline = Clock::now() + timeout_ * static_cast<long>(cases.size());
    std::string line, why;
    Io r = process_->write_line(history[k], deadline);
    if (r == Io::done) r = process_->read_line(line, deadline, limit);
    if (r == Io::timeout) why = "no answer within " + std::to_string(timeout_.count() * static_cast<long>(cases.size())) + " ms";
    else if (r == Io::eof) why = "exited (" + process_->reap(false) + ")";
    else if (r != Io::done) why = read_failure(limit);
    else
      try {
        outcomes_from_answer(line, id, pointers);
      } catch (const std::exception& e) {
        why = std::string("malformed answer: ") + e.what();
      }
    if (!why.empty()) {
      why = "request " + std::to_string(k + 1) + ": " + why + process_->stderr_note();
      stop();
      return why;
    }
  }
  stop();
  return "";
}

void ExternalOracle::keep_in_history(const std::string& line) {
  if (!history_whole_) return;
  history_bytes_ += line.size();
  if (history_.size() >= kHistoryRequests || history_bytes_ > kHistoryBytes) {
    history_whole_ = false;
    history_.clear();
    history_.shrink_to_fit();
    return;
  }
  history_.push_back(line);
}

void ExternalOracle::send_queued(size_t upto, bool whole_only) {
  const size_t end = std::min(upto, queue_.size());
  const size_t most = caps_ && caps_->batch && !batches_off_ ? kBatch : 1;
  const bool upstream = caps_ && sends_upstream(*caps_);
  std::vector<const Case*> batch;
  while (resolved_ + sent_ < end) {
    const size_t first = resolved_ + sent_;
    const size_t n = std::min(end - first, most);
    if (whole_only && n < most) return;
    const int64_t id = next_id_++;
    std::string line;
    if (n == 1) {
      line = request_line(queue_[first].c, id, upstream);
    } else {
      batch.clear();
      for (size_t k = first; k < first + n; ++k) batch.push_back(&queue_[k].c);
      line = batch_line(batch, id, upstream);
    }
    keep_in_history(line);
    outbox_ += line;
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

Io ExternalOracle::exchange(std::string& line, Clock::time_point deadline, size_t limit) {
  for (;;) {
    process_->write_some(outbox_);
    const Io t = process_->take_line(line, limit);
    if (t == Io::done) last_answer_ = Clock::now();
    if (t != Io::timeout) return t;
    // A lone round trip (shrinking, a case not submitted) spins briefly, as before the queue; with a queue the
    // adapter answers at its computing pace, and a spinning parent would take its core (as the isolated workers).
    // While requests wait to be written it waits for either pipe: an adapter blocked on writing its answers must not
    // wait for us while we wait for it.
    const bool writing = !outbox_.empty();
    const Io w = process_->wait(deadline, true, writing, sent_ > 1 || writing ? Spin::never : Spin::first);
    if (w != Io::done) return w;
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

std::string external_reproduction(const std::string& command, const Case& c, bool upstream) {
  return external_reproduction_of(command, {request_line(c, 1, upstream)});
}

std::string external_reproduction_of(const std::string& command, const std::vector<std::string>& requests) {
  std::string lines = shell_quote(hello_line());
  for (const std::string& r : requests) lines += " " + shell_quote(r);
  return "printf '%s\\n' " + lines + " | (" + command + ")";
}

}  // namespace bc
