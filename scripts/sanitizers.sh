#!/usr/bin/env bash
# The last step of the test command (scripts/test.sh): builds the engine, the harness, the generators and the engine
# oracle with AddressSanitizer + UndefinedBehaviorSanitizer (CMake option BC_SANITIZE, without LibTorch or xtensor)
# into build-asan/ and runs their tests. A failing test or any sanitizer report (-fno-sanitize-recover=all makes
# UBSan abort, a leak fails the test at exit) fails the script. Debug at -O0 with line tables only (-g1): the build is
# most of the cost; -O0 compiles about twice as fast as -O1 under the sanitizers, -g1 about 0.85x the time of -g, and
# the sanitizers' reports still name file and line (docs/notes/build-time.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
bc_begin "sanitizers: configuring build-asan/ (ASan + UBSan, Debug)"
cmake -S . -B build-asan -G Ninja -DBC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  > build-configure.log 2>&1 \
  || { cat build-configure.log; exit 1; }
rm -f build-configure.log
bc_end "sanitizers: configured"
bc_begin "sanitizers: building the engine, the harness, the generators and their tests into build-asan/"
bc_build build-asan
bc_end "sanitizers: built"
bc_begin "sanitizers: running their tests (ctest -j 2)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 bc_ctest build-asan
bc_end "sanitizers: their tests passed"
