#!/usr/bin/env bash
# README command 2 (and what CI runs): set up, build, and run the whole test suite with ctest, then the engine's,
# the harness's and the generators' tests again under AddressSanitizer + UndefinedBehaviorSanitizer (sanitizers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j 2
bash scripts/sanitizers.sh
