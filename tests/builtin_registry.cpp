// Registers broadcheck's built-in implementations before any test runs, as main() does for the command line.
#include "cli/builtin_implementations.h"

namespace {

const int registered = (bc::register_builtin_implementations(), 0);

}  // namespace
