#!/usr/bin/env bash
# README command 2 (and what CI runs): set up, build, and run the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j 2
