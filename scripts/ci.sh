#!/usr/bin/env bash
# The steps of a CI conformance run that the templates (.github/workflows/conformance.yml, ci/gitlab/conformance.yml)
# call, so that what tests/ci/ci_templates_test.py plays is what CI runs (docs/ci.md):
#   ci.sh shard K N OUT          shard K of N (0 <= K < N) of `broadcheck run` into folder OUT. The run's size comes
#                                from the environment: BC_SEED (default 1), BC_CASES (default 2000, none when BC_TIME
#                                is set), BC_TIME (seconds), BC_RUN_ARGS (more flags, split at spaces); the corpus
#                                and config are the checkout's; new minimal cases are saved into
#                                OUT/new-findings.jsonl (--save). Exits 0 when the shard ran, findings or not (the
#                                merge judges the whole run), else with broadcheck's code (2 bad input, 3 internal).
#   ci.sh merge SHARDS_DIR OUT   `broadcheck merge` of every SHARDS_DIR/shard-* into OUT: the unsharded run's
#                                results.jsonl, summary.json, summary.md, junit.xml and report.html; summary.md is
#                                appended to $GITHUB_STEP_SUMMARY when that is set; OUT/new-findings.jsonl holds the
#                                shards' saved cases (each line once: corpus lines, docs/ci.md). Exits with the
#                                merge's code: 0
#                                nothing new disagrees, 1 new findings, 2 a shard missing, doubled or of another run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/progress.sh"
broadcheck=$root/build/broadcheck
usage="usage: ci.sh shard K N OUT | ci.sh merge SHARDS_DIR OUT"

shard() {
  local args=(run --seed "${BC_SEED:-1}" --shard "$1/$2" --out "$3" --save "$3/new-findings.jsonl"
              --corpus-dir "$root/corpus" --config "$root/broadcheck.json")
  if [ -n "${BC_CASES:-}" ]; then
    args+=(--cases "$BC_CASES")
  elif [ -z "${BC_TIME:-}" ]; then
    args+=(--cases 2000)
  fi
  [ -z "${BC_TIME:-}" ] || args+=(--time "$BC_TIME")
  local extra
  read -ra extra <<< "${BC_RUN_ARGS:-}"
  args+=("${extra[@]}")
  bc_begin "ci: shard $1/$2: broadcheck ${args[*]}"
  local code=0
  # The job's page gets the merged run's summary only, not one per shard.
  env -u GITHUB_STEP_SUMMARY "$broadcheck" "${args[@]}" || code=$?
  bc_end "ci: shard $1/$2 exited $code"
  [ "$code" -le 1 ] || exit "$code"
}

merge() {
  shopt -s nullglob
  local shards=("$1"/shard-*/)
  shards=("${shards[@]%/}")
  if [ ${#shards[@]} -eq 0 ]; then
    echo "ci.sh: no shard-* folder in $1: did the shard jobs run and keep their folders?" >&2
    exit 2
  fi
  bc_begin "ci: merging ${#shards[@]} shard folder(s) of $1 into $2"
  local code=0
  "$broadcheck" merge "${shards[@]}" --out "$2" --config "$root/broadcheck.json" || code=$?
  local saved=("${shards[@]/%//new-findings.jsonl}")
  if [ -d "$2" ]; then
    { cat "${saved[@]}" 2>/dev/null || true; } | awk '!seen[$0]++' > "$2/new-findings.jsonl"
  fi
  bc_end "ci: merge exited $code"
  exit "$code"
}

# A CI artifact does not keep file modes: a build job's broadcheck arrives without its x bit.
[ ! -f "$broadcheck" ] || [ -x "$broadcheck" ] || chmod +x "$broadcheck"
case "${1:-} $#" in
  "shard 4") shard "$2" "$3" "$4" ;;
  "merge 3") merge "$2" "$3" ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
