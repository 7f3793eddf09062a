// An implementation outside this process: a program broadcheck starts (`/bin/sh -c COMMAND`) and talks to over its
// standard input and output in broadcheck's protocol (docs/protocol.md, oracles/protocol.h). Cases outside what the
// adapter declared are `unsupported` and never sent; an adapter that crashes, exits, hangs or answers garbage gives
// that case a crash or timeout outcome naming the adapter (with the end of its stderr), and the next case starts a
// fresh process. Submitted cases are queued to the adapter ahead (the protocol answers requests in order), in batch
// requests when it declared "batch", so it computes ahead while this process judges (docs/notes/crash-isolation.md).
// A failure is a case's own only when that case, alone, is a fresh adapter's first request: otherwise the cases in
// its hands run again one by one in a fresh adapter, and the first that fails there runs alone in another, keeping
// its failure if it fails again. When none fails alone, a fresh adapter is sent the failed process's requests again: a failure that recurs then (or whose requests
// are too many to send again) is the adapter's fault (take_faults()), and the cases keep their alone answers; one
// that does not recur is the oldest case's, its detail saying it was not reproduced.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oracles/adapter_process.h"
#include "oracles/oracle.h"
#include "oracles/protocol.h"

namespace bc {

class ExternalOracle : public Oracle {
 public:
  // The most cases in one request to an adapter that declared "batch". submit() sends a batch once it is full; the
  // rest go with the next run() (docs/notes/crash-isolation.md, "Batches").
  static constexpr size_t kBatch = 16;

  // `name` is the key of its outcomes; nothing starts until prepare() or the first call that needs the adapter.
  // `known_version` ("NAME VERSION", from a handshake read before, when the adapter was registered) is what
  // version() answers without starting it, and what every start must say again.
  ExternalOracle(std::string name, std::string command, std::chrono::milliseconds timeout,
                 std::string known_version = "");
  ~ExternalOracle() override;
  ExternalOracle(const ExternalOracle&) = delete;
  ExternalOracle& operator=(const ExternalOracle&) = delete;

  std::string name() const override { return name_; }
  std::string version() const override;  // "NumPy 1.24.2": the handshake's name and version (or known_version)
  // Starts the adapter if it is not running and returns its handshake; throws std::runtime_error naming the
  // adapter and the reason when it does not start or its handshake is unusable.
  const Capabilities& capabilities() const;
  const std::string& command() const { return command_; }
  // Launches the adapter of an oracle never started (its process, the hello line written) without reading its
  // handshake, which the first call that needs the adapter reads; the start's timeout counts from here.
  void prepare() override;
  // The answer to `c`; the queued cases not sent yet go now, `c` behind them when it was not queued; answers to
  // cases queued before it are read and dropped.
  Outcome run(const Case& c) override;
  // Queues `c` behind the cases queued (unless it is queued already, or not declared), sending each batch as it
  // fills (each case at once to an adapter without "batch"); the first submit starts the adapter, and a failed
  // start is the next case run's outcome. An adapter stopped after a crash, a hang or a malformed
  // answer is restarted here, so that the cases submitted after it still reach it together. A failed restart is the
  // next case run's outcome (it does not try again); until then the cases only wait in the queue.
  void submit(const Case& c) override;
  // The outcomes of several cases: each submitted, then run, so that they go as batch requests to an adapter that
  // declared "batch" (one at a time to one that did not).
  std::vector<Outcome> run_batch(const std::vector<Case>& cases);
  std::vector<AdapterFault> take_faults() override { return std::exchange(faults_, {}); }

  // The requests of one adapter process kept for sending them again (the oldest first); past either bound the
  // history is dropped and a fault that did not recur alone is the adapter's without that test.
  static constexpr size_t kHistoryRequests = 4096;
  static constexpr size_t kHistoryBytes = size_t{32} << 20;
  // The longest reproduction of a fault (the requests piped into the adapter) a finding carries.
  static constexpr size_t kReproductionBytes = size_t{64} << 10;

 private:
  // Launches the process and writes the hello line: a start under way, which handshake() finishes.
  void launch() const;
  std::optional<std::string> handshake() const;  // the reason the start under way failed, or nothing
  // Finishes the start prepare() began, else starts anew: the reason it failed, or nothing.
  std::optional<std::string> start() const;
  std::optional<std::string> start_for_run();  // submit()'s failed start, once, else start(): one try per case
  void stop() const;
  Outcome lost(const std::string& why) const;  // kills the adapter; the crash outcome naming it, with its stderr
  struct Reading {
    Outcome outcome;
    bool failed;          // no usable answer: the adapter crashed, exited or hung first, or garbled the answer
    size_t suspects;      // the cases that may have caused it: all in its hands for a death or a hang, the request's
                          // for a garbled answer
    size_t request = 0;   // the failed request's place among those its process was sent, from 1
    bool batch = false;   // that request held several cases
  };
  Outcome answer_head();                       // the answer to the oldest queued case, dequeued
  // The oldest unanswered case's, sending the queue up to the upto-th; the answers to the other cases of its request
  // go into their entries.
  Reading read_oldest(size_t upto);
  void settle(const Reading& failure);  // runs the suspects alone, then the history again (header comment)
  // Sends a fresh adapter the first `count` requests of `history` one at a time, checking each answer: how it
  // failed ("request 30: exited (...)"), or "" when it answered them all.
  std::string replay(const std::vector<std::string>& history, size_t count) const;
  // Moves the unsent cases up to the upto-th into the outbox as requests: batches of up to kBatch when the adapter
  // declared "batch" (docs/notes/crash-isolation.md, "Batches"). `whole_only`: only full batches (submit()).
  void send_queued(size_t upto, bool whole_only = false);
  void keep_in_history(const std::string& line);
  Io exchange(std::string& line, Clock::time_point deadline, size_t limit);  // the next answer line, writing while it waits

  std::string name_, command_;
  std::chrono::milliseconds timeout_;
  std::string known_version_;
  mutable std::unique_ptr<AdapterProcess> process_;
  mutable std::optional<Capabilities> caps_;
  mutable std::optional<std::string> failed_start_;  // why submit()'s start failed: the next case run gets it
  // A start under way (launch()): its hello line's fate and its deadline; its handshake is not read yet.
  mutable bool launched_ = false;
  mutable Io hello_ = Io::done;
  mutable Clock::time_point start_deadline_{};
  int64_t next_id_ = 1;
  // The cases whose answers are yet to be returned, oldest first: the first `resolved_` have their answer already
  // (from their request's answer, or from running alone after a death); of the others, the first `sent_` went to
  // the current adapter (or wait in `outbox_`, the bytes not yet written), in requests of `in_request` cases from
  // the one with that count. A restarted adapter is sent them again.
  struct Submitted {
    Case c;
    int64_t id = 0;          // its request's, once sent
    size_t in_request = 0;   // on a request's first case: the cases it holds
    Clock::time_point sent{};
    std::optional<Outcome> answer = std::nullopt;
  };
  std::deque<Submitted> queue_;
  size_t resolved_ = 0;
  mutable size_t sent_ = 0;
  mutable std::string outbox_;
  mutable Clock::time_point last_answer_;  // when the current adapter last answered (a queued case's clock starts then)
  // The current process's requests, in the order sent (while `history_whole_`), and how many it answered.
  mutable std::vector<std::string> history_;
  mutable size_t history_bytes_ = 0, answered_ = 0;
  mutable bool history_whole_ = true;
  std::vector<AdapterFault> faults_;
  bool batches_off_ = false;  // after a fault at a batch request: one case per request (a correct, slower adapter)
};

// One line of shell that reproduces the case on the adapter alone: the hello line and the request line piped into
// its command, which runs in a subshell (so that a `cd DIR && ...` command gets the pipe, not just its cd). With
// `upstream` (a protocol-2 adapter with gradients, sends_upstream()) the request carries its upstream gradient.
std::string external_reproduction(const std::string& command, const Case& c, bool upstream = false);
// The hello line and these request lines piped into the command (an adapter's history sent again).
std::string external_reproduction_of(const std::string& command, const std::vector<std::string>& requests);

}  // namespace bc
