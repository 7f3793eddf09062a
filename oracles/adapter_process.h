// An adapter program's process, as oracles/external_oracle.h runs it: `/bin/sh -c COMMAND` in a process group of
// its own, its standard input and output the protocol's pipes, its standard error captured (the last kStderrTail
// bytes kept for the outcomes of its faults, never echoed) and drained by every wait, so that an adapter that writes
// much of it never blocks on it.
#pragma once

#include <sys/types.h>

#include <string>

#include "oracles/child_process.h"

namespace bc {

class AdapterProcess {
 public:
  static constexpr size_t kStderrTail = 4096;

  // Starts the command; throws std::system_error when the pipes or the fork fail.
  explicit AdapterProcess(const std::string& command);
  ~AdapterProcess();  // kills and reaps it if it still runs
  AdapterProcess(const AdapterProcess&) = delete;
  AdapterProcess& operator=(const AdapterProcess&) = delete;

  // The next whole line already read (without its newline): done, timeout (none whole yet) or failed (the line
  // under way is longer than `limit`).
  Io take_line(std::string& line, size_t limit);
  // One read of its output into the buffer: done (bytes came, or none yet), eof or failed.
  Io fill();
  // Waits until its output is readable (`reading`) or its input writable (`writing`), or the deadline passes,
  // draining its standard error meanwhile; a deadline already passed still looks once. Spin::first spins briefly
  // on the output first (a lone round trip).
  Io wait(Clock::time_point deadline, bool reading, bool writing, Spin spin = Spin::never);
  // Reads one line before the deadline; writes one line (with its newline) before the deadline.
  Io read_line(std::string& line, Clock::time_point deadline, size_t limit);
  Io write_line(const std::string& line, Clock::time_point deadline);
  // Writes what its input takes of `bytes` now and erases that; a reader gone (EPIPE) clears them.
  void write_some(std::string& bytes);
  void close_input();
  bool input_open() const { return to_ >= 0; }
  bool running() const { return pid_ >= 0; }
  // Closes the pipes, kills the process group (and first the process itself, with kill_first) and returns how it
  // ended ("exit status 3", "SIGABRT (exit status 134)" for a shell's child).
  std::string reap(bool kill_first);
  // "; stderr: ...": the end of what it wrote on standard error (read to the end once it is gone), or "".
  std::string stderr_note();

 private:
  void drain_stderr();

  pid_t pid_ = -1;
  int to_ = -1, from_ = -1, err_ = -1;
  std::string buffer_, tail_;
  size_t stderr_bytes_ = 0;
};

}  // namespace bc
