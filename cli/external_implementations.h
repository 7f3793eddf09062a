// Implementations outside broadcheck, named on the command line (`--oracle NAME=COMMAND`) or in a config file a
// repository commits (broadcheck.json): each is started once to read its handshake, registered in the harness
// registry (harness/implementations.h) as a voter titled by its handshake, and then joins make_all_oracles.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace bc {

struct ExternalSpec {
  std::string name;
  std::string command;    // run by /bin/sh -c, from any folder: it starts with `cd` to the folder it runs in
  bool optional = false;  // left out (with a note) when it does not start, instead of failing the run
  std::string source;     // where it was named: "--oracle" or "broadcheck.json"
  std::string version;    // "NAME VERSION" from its handshake when it was registered ("" before)
};

// "NAME=COMMAND"; the command runs in the current folder (`cd CWD && COMMAND`, so that it means the same when
// replayed from another folder). Throws std::invalid_argument with the reason (no '=', an empty name or command).
ExternalSpec parse_oracle_option(const std::string& text);

// The config file: {"oracles": {"NAME": {"command": "...", "optional": true}, "OTHER": "command"}}. A command runs
// in the file's folder. Throws std::runtime_error naming the file and the reason.
std::vector<ExternalSpec> load_config(const std::string& path);

// Starts every adapter at once, reads each one's handshake and registers it; a later spec of the same name replaces
// an earlier.
// Returns "" on success, else the reason (naming the adapter) the first non-optional one did not start. Optional
// ones that do not start are reported on `notes` and left out.
std::string register_external_implementations(const std::vector<ExternalSpec>& specs, int timeout_ms,
                                              std::ostream& notes);

// The registered external implementations, in order (make_all_oracles builds their oracles).
const std::vector<ExternalSpec>& external_implementations();

}  // namespace bc
