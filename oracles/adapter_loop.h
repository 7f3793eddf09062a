// The adapter's side of the protocol (docs/protocol.md), for adapters written in C++ (engine_adapter,
// xtensor_adapter): reads the hello line, writes the handshake, then answers each request line with `answer` (a
// batch item by item) until standard input ends.
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

namespace bc {

// `handshake()` is called once the hello has come. Returns 1 when no hello came, else 0 (main's exit code).
int serve_protocol(const std::function<nlohmann::json()>& handshake,
                   const std::function<nlohmann::json(const nlohmann::json& request)>& answer);

}  // namespace bc
