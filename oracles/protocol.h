// broadcheck's protocol for implementations outside this process (docs/protocol.md), as pure data: the hello line,
// the capabilities an adapter declares, a case as a request line (with its operands' concrete values), and an
// answer line read back as an Outcome. No process handling here (oracles/external_oracle.h does that).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/case.h"
#include "harness/outcome.h"

namespace bc {

// The protocol versions this broadcheck speaks (docs/protocol.md): 1, and 2, in which a gradient case's request
// carries its upstream gradient. The hello line says 1 (what a protocol-1 adapter reads) and lists both.
constexpr int kOldestProtocol = 1;
constexpr int kNewestProtocol = 2;

// Limits on what an adapter writes (docs/protocol.md, "Limits"): past them its line is a protocol error, never
// stored. A handshake line holds at most kMaxHandshakeLine bytes, any line JSON nested at most kMaxJsonDepth deep,
// and a detail, a message or a warning at most kMaxAnswerText bytes.
constexpr size_t kMaxHandshakeLine = size_t{1} << 20;
constexpr int kMaxJsonDepth = 32;
constexpr size_t kMaxAnswerText = size_t{1} << 16;
// The longest answer line to a request of these cases: 1 MiB, and 32 bytes per value the answers may hold (a
// result of at most kMaxElementsPerTensor elements, and a gradient case's gradients of its operands' sizes).
size_t answer_line_limit(const std::vector<const Case*>& cases);

// What an adapter says of itself in its handshake.
struct Capabilities {
  std::string name;     // the library's own name, for people ("NumPy")
  std::string version;  // its version ("1.24.2")
  std::set<std::string> ops, dtypes, layouts;
  bool gradients = false;
  bool batch = false;   // answers {"batch": [...]} requests
  bool out = false;     // runs a case's "out" (the out= form of a binary op) as its library's out= argument
  bool numbers = false; // takes number operands ({"number": 2.5} in "shapes" and "operands": docs/protocol.md)
  int protocol = 1;     // the version its handshake answered (kOldestProtocol..kNewestProtocol)
  std::vector<std::string> ignored;  // declared names this broadcheck does not know ("op cumsum")
};

// The first line broadcheck writes: {"protocol": 1, "hello": "broadcheck", "protocols": [1, 2]}.
std::string hello_line();
// The adapter's answer to it. Throws std::runtime_error naming what is wrong (not JSON, a protocol version this
// broadcheck does not speak, a missing or mistyped field); ops, dtypes and layouts broadcheck does not know are
// listed in `ignored`.
Capabilities capabilities_from_hello(const std::string& line);
// Whether the adapter is sent every gradient case with its upstream gradient: protocol 2 and "gradients": true.
bool sends_upstream(const Capabilities& caps);

// Why the adapter is not sent the case ("not declared by the adapter: op lerp"), or nullopt when it is.
std::optional<std::string> undeclared(const Capabilities& caps, const Case& c);

// The request for one case: {"id", "case" (corpus form), "operands": [...]}; compact JSON without a newline. With
// `upstream` (protocol 2, sends_upstream()), a gradient case also carries "upstream": {"shape", "dtype", "values"},
// the gradient its backward starts from under the rule (oracles/engine_oracle.h, rule_upstream), when it has one.
nlohmann::json request_json(const Case& c, int64_t id, bool upstream = false);
std::string request_line(const Case& c, int64_t id, bool upstream = false);
// Several cases in one request: {"id", "batch": [{"case", "operands"[, "upstream"]}, ...]}.
std::string batch_line(const std::vector<const Case*>& cases, int64_t id, bool upstream = false);
// A request's (or a batch item's) "upstream" read back, nullopt without one (how an adapter in C++ reads it).
// Throws std::runtime_error when it is malformed (an unknown dtype, values that are not the shape's).
std::optional<Grad> upstream_of(const nlohmann::json& request);

// The request line's id and cases, read back (how a request is sent again when an adapter's history is replayed).
// Throws std::runtime_error when it is not one of request_line's or batch_line's.
std::vector<Case> cases_of_request(const std::string& line, int64_t& id);

// An answer line {"id", "outcome"} (or {"id", "outcomes"} for a batch of `count`) back as outcomes. Throws
// std::runtime_error with the reason when the line is not JSON, names another id, or an outcome is malformed
// (unknown status, ok without shape or dtype, a value that is not a number or "nan"/"inf"/"-inf"/an integer in a
// string, values whose count is not the shape's, nesting deeper than kMaxJsonDepth, a text over kMaxAnswerText, ...).
std::vector<Outcome> outcomes_from_answer(const std::string& line, int64_t id, const std::vector<const Case*>& cases);

}  // namespace bc
