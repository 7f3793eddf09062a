// What one implementation did with one case, as a value: ok (shape, dtype), error (kind and the library's own
// message), crash, timeout, or unsupported (the library has no such operation; it does not vote).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/error.h"
#include "engine/shape.h"
#include "harness/values.h"

namespace bc {

enum class Status { ok, error, crash, timeout, unsupported };
const char* to_string(Status s);
std::optional<Status> status_from_string(const std::string& s);

// The gradient an input received: its shape, dtype and values (row-major, of the dtype's kind: harness/values.h).
struct Grad {
  Shape shape;
  std::string dtype;
  Values values;
  friend bool operator==(const Grad& a, const Grad& b);
};

struct Outcome {
  Status status = Status::unsupported;
  Shape shape;            // ok
  std::string dtype;      // ok
  std::optional<Error> error;  // error
  std::string detail;     // crash: the signal; unsupported: why
  Values values;  // ok, in a value-level case: the result's elements in row-major order, of the dtype's kind
  std::vector<std::optional<Grad>> grads;  // ok, in a gradient case: per operand, none when it got no gradient
  // The values and the gradients' values were withheld (left empty): a declaration says they change from run to
  // run (harness/nondeterminism.h). JSON writes "nondeterministic" in their place.
  bool withheld = false;
  // The warnings the call raised, in order (LibTorch's resize of an out= tensor: its text); recorded for out= cases.
  std::vector<std::string> warnings;

  static Outcome success(Shape shape, std::string dtype = "float32");
  static Outcome failure(ErrorKind kind, std::string message);
  static Outcome unsupported_because(std::string why);

  // Exact equality of values (NaN equals NaN, -0.0 differs from 0.0); tolerances are the judge's business.
  friend bool operator==(const Outcome& a, const Outcome& b) {
    return a.status == b.status && a.shape == b.shape && a.dtype == b.dtype && a.error == b.error &&
           a.detail == b.detail && same_values(a.values, b.values) && a.grads == b.grads &&
           a.withheld == b.withheld && a.warnings == b.warnings;
  }
  static bool same_values(const Values& x, const Values& y) { return x == y; }
  friend bool operator!=(const Outcome& a, const Outcome& b) { return !(a == b); }
};

// The first field, in that order, where two outcomes differ ("status", "shape", "dtype", "error kind"), or "".
std::string first_difference(const Outcome& a, const Outcome& b);

// "ok [2, 3] float32", "error broadcast", "crash SIGSEGV", "unsupported": the part of an outcome implementations
// must agree on (status, shape, dtype, error kind; never the message), as one short line. Equal lines = agreement.
std::string summarize(const Outcome& o);

// "[3] float32" or "none" per operand, joined: the structure of the gradients, which implementations must share.
std::string summarize_grads(const Outcome& o);

nlohmann::json to_json(const Outcome& o);
Outcome outcome_from_json(const nlohmann::json& j);

}  // namespace bc
