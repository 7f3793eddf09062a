// Registers the three implementations the hand-built records of these tests name, with their roles and no
// libraries behind them, for test binaries that judge without linking the oracles (cli/builtin_implementations.cpp
// registers the real ones).
#include "harness/implementations.h"

namespace {

const int registered = [] {
  bc::register_implementation({"engine", "the engine", bc::Role::rule, {}, "", {}});
  bc::register_implementation({"torch", "LibTorch", bc::Role::reference, {}, "", {}});
  bc::register_implementation({"xtensor", "xtensor", bc::Role::voter, {}, "", {}});
  return 0;
}();

}  // namespace
