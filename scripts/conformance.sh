#!/usr/bin/env bash
# README command 1: set up and build what a run needs (scripts/setup.sh run: broadcheck alone, not the tests), then
# run the default conformance run (corpus replay, then every property with 2000 generated cases, seed 1; a coverage
# class a property requires and never drew fails it, --fail-on-missing-coverage). Leaves
# results.jsonl, summary.json, summary.md, junit.xml and report.html in broadcheck-out/ and exits with broadcheck's
# code: 0 nothing new disagrees, 1 new findings, 2 bad input, 3 internal error.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
bash scripts/setup.sh run
command=(./build/broadcheck run --seed 1 --cases 2000 --fail-on-missing-coverage --out broadcheck-out "$@")
bc_step "conformance: running ${command[*]}"
exec "${command[@]}"
