// The implementations compiled into broadcheck, one registration line each (cli/builtin_implementations.cpp):
// what the harness registry records of them (harness/implementations.h) and how to build their oracles.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "harness/implementations.h"
#include "oracles/gated_oracle.h"
#include "oracles/isolated_oracle.h"
#include "oracles/oracle.h"

namespace bc {

struct BuiltIn {
  Implementation info;
  std::function<std::unique_ptr<Oracle>()> make;
  bool isolated;  // runs in a forked worker when the run isolates libraries (our own engine does not)
  // What its oracle answers without running a case (its own first check); an isolated run decides it in this
  // process, so the worker receives only the cases it runs (oracles/gated_oracle.h). Empty: no such check.
  Refusal refuses = {};
  // Whether its worker survives a SIGFPE on the case's thread (oracles/isolated_oracle.h): for a single-threaded
  // library that holds no lock while it computes (xtensor), not for LibTorch (its thread pools and locks).
  OnSigfpe on_sigfpe = OnSigfpe::die;
};
const std::vector<BuiltIn>& builtin_implementations();

// Registers every built-in implementation in the harness registry (idempotent). main() and the tests that judge
// call it before anything reads the registry.
void register_builtin_implementations();

// "broadcheck COMMIT", then "NAME: VERSION" for each built-in implementation (its oracle's version()), one per
// line, with no final newline: --version.
std::string version_text();

// One oracle per registered built-in implementation, in registration order, then one per external implementation
// (cli/external_implementations.h). With `isolate`, the isolated ones each
// run in a forked worker (oracles/isolated_oracle.h), so that a crash or a hang becomes that case's outcome instead
// of the run's end (LibTorch and xtensor both crash on real inputs: integer division and remainder by zero, or of
// INT64_MIN by -1). Each is prepared (Oracle::prepare): the adapters start together.
std::vector<std::unique_ptr<Oracle>> make_all_oracles(bool isolate = true, int timeout_ms = 10000);

}  // namespace bc
