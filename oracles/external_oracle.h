// An implementation outside this process: a program broadcheck starts (`/bin/sh -c COMMAND`) and talks to over its
// standard input and output in broadcheck's protocol (docs/protocol.md, oracles/protocol.h). Cases outside what the
// adapter declared are `unsupported` and never sent; an adapter that crashes, exits, hangs or answers garbage gives
// that case a crash or timeout outcome naming the adapter, and the next case starts a fresh process.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "oracles/child_process.h"
#include "oracles/oracle.h"
#include "oracles/protocol.h"

namespace bc {

class ExternalOracle : public Oracle {
 public:
  // `name` is the key of its outcomes; nothing starts until the first call that needs the adapter.
  ExternalOracle(std::string name, std::string command, std::chrono::milliseconds timeout);
  ~ExternalOracle() override;
  ExternalOracle(const ExternalOracle&) = delete;
  ExternalOracle& operator=(const ExternalOracle&) = delete;

  std::string name() const override { return name_; }
  std::string version() const override;  // "NumPy 1.24.2": the handshake's name and version
  // Starts the adapter if it is not running and returns its handshake; throws std::runtime_error naming the
  // adapter and the reason when it does not start or its handshake is unusable.
  const Capabilities& capabilities() const;
  const std::string& command() const { return command_; }
  Outcome run(const Case& c) override;
  void submit(const Case& c) override;
  // Several cases in one request when the adapter declared "batch" (else one by one). When the batch fails (a
  // crash, hang or malformed answer), its cases are run again one at a time, so that a fault is that case's own.
  std::vector<Outcome> run_batch(const std::vector<Case>& cases);

 private:
  struct Process;
  std::optional<std::string> start() const;  // the reason it failed, or nothing
  void stop() const;
  Outcome lost(const std::string& why) const;  // kills the adapter; the crash outcome naming it

  std::string name_, command_;
  std::chrono::milliseconds timeout_;
  mutable std::unique_ptr<Process> process_;
  mutable std::optional<Capabilities> caps_;
  int64_t next_id_ = 1;
  struct Submitted {
    std::string request;
    int64_t id;
    Clock::time_point deadline;
  };
  std::optional<Submitted> submitted_;
};

// A shell command that reproduces the case on the adapter alone: the hello line and the request line piped into
// its command.
std::string external_reproduction(const std::string& command, const Case& c);

}  // namespace bc
