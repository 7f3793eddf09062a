// An oracle whose refusals are decided in this process: `refuses(c)` is a pure function of the case, the same one
// the wrapped oracle applies first, so a case it refuses never reaches the wrapped oracle (for an isolated one, its
// worker), and the outcome is the one the oracle would have given. Measured effect: bench/README.md.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "oracles/oracle.h"

namespace bc {

// The outcome an oracle gives `c` without running it (unsupported, with its reason), or nothing when it runs it.
using Refusal = std::function<std::optional<Outcome>(const Case& c)>;

// `inner` behind the gate `refuses`: run(c) is refuses(c) when that says something, else inner->run(c); submit(c)
// reaches inner only for a case it will run. name() and version() are inner's.
std::unique_ptr<Oracle> make_gated_oracle(Refusal refuses, std::unique_ptr<Oracle> inner);

}  // namespace bc
