# Progress lines for the set-up and the README's two commands (sourced, not run): each phase is a line that starts
# with the time since the command started ("[m:ss] ..."), and a build or a ctest run says how far along it is in a
# line every tenth of its steps when stdout is not a terminal (a CI log: no redrawn lines, no flood).
# The clock starts in the first script that sources this file; the scripts it starts share it (BC_CLOCK_START).
: "${BC_CLOCK_START:=$(date +%s)}"
export BC_CLOCK_START

# "m:ss" since the command started, or since the epoch second given.
bc_clock() {
  local s=$(( $(date +%s) - ${1:-$BC_CLOCK_START} ))
  printf '%d:%02d' $(( s / 60 )) $(( s % 60 ))
}

bc_step() { printf '[%s] %s\n' "$(bc_clock)" "$*"; }

# bc_begin TEXT starts a phase; bc_end TEXT closes it with the phase's own time.
bc_begin() {
  BC_PHASE_START=$(date +%s)
  bc_step "$*"
}
bc_end() { bc_step "$* (took $(bc_clock "$BC_PHASE_START"))"; }

# Reads ninja's "[N/M] ..." or ctest's "N/M Test #k: ... Passed" lines and prints "LABEL: N of M (P%)" once per tenth
# of M; ctest's "Start k: NAME" lines are dropped; every other line (a compiler's error, ninja's FAILED, a failing
# test and its output, ctest's summary) passes through.
bc_every_tenth() {
  local label=$1 line n m tenth shown=-1
  while IFS= read -r line; do
    [[ $line =~ ^\ +Start\ +[0-9]+:\  ]] && continue
    if [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\  ]] ||
       [[ $line =~ ^\ *([0-9]+)/([0-9]+)\ Test\ +#[0-9]+:\ .*\ Passed\ +[0-9.]+\ sec$ ]]; then
      n=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]}
      tenth=$(( n * 10 / m ))
      (( tenth == shown )) && continue
      shown=$tenth
      bc_step "$label: $n of $m ($(( n * 100 / m ))%)"
    else
      printf '%s\n' "$line"
    fi
  done
}

# bc_build DIR [TARGET...]: cmake --build (every target when none is named). On a terminal ninja draws its own
# status line; elsewhere its [N/M] lines are thinned to one per tenth. The build's exit code is returned.
bc_build() {
  local dir=$1
  shift
  local targets=()
  [ $# -eq 0 ] || targets=(--target "$@")
  if [ -t 1 ]; then
    cmake --build "$dir" "${targets[@]}"
    return
  fi
  NINJA_STATUS='[%f/%t] ' cmake --build "$dir" "${targets[@]}" 2>&1 | bc_every_tenth "building"
  return "${PIPESTATUS[0]}"
}

# bc_ctest DIR [ARGS...]: ctest --output-on-failure -j 2, its passing tests thinned to one line per tenth off a
# terminal (failures and the summary pass through). ctest's exit code is returned.
bc_ctest() {
  local dir=$1
  shift
  if [ -t 1 ]; then
    ctest --test-dir "$dir" --output-on-failure -j 2 "$@"
    return
  fi
  ctest --test-dir "$dir" --output-on-failure -j 2 "$@" 2>&1 | bc_every_tenth "testing"
  return "${PIPESTATUS[0]}"
}
