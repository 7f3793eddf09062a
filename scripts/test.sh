#!/usr/bin/env bash
# README command 2 (and what CI runs): set up and build every target, run the whole test suite with ctest, then the
# engine's, the harness's and the generators' tests again under AddressSanitizer + UndefinedBehaviorSanitizer
# (sanitizers.sh). Each phase prints a line with the time since the start (scripts/progress.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
bash scripts/setup.sh
bc_begin "test: running the test suite in build/ (ctest -j 2)"
bc_ctest build
bc_end "test: the test suite passed"
bash scripts/sanitizers.sh
bc_step "test: everything passed"
