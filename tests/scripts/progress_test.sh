#!/usr/bin/env bash
# scripts/progress.sh's progress lines: ninja's [N/M] lines thinned to one per tenth, ctest's Start lines dropped and
# its passing tests thinned, every other line (errors, failures, summaries) kept, and a failing build's exit code
# kept through the filter. Run by ctest: progress_test.sh SOURCE_DIR.
set -uo pipefail
source "$1/scripts/progress.sh"
failures=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAILED: $1: expected [$2], got [$3]"
    failures=$((failures + 1))
  fi
}
strip_clock() { sed -E 's/^\[[0-9]+:[0-9]{2}\] //'; }

ninja=$(for i in $(seq 1 200); do
  echo "[$i/200] Building CXX object f$i.o"
  [ "$i" -eq 57 ] && echo "f57.cpp:3:1: error: expected ';'"
done | bc_every_tenth building | strip_clock)
check "ninja: one line per tenth and the error" 12 "$(wc -l <<< "$ninja")"
check "ninja: the first line names M" "building: 1 of 200 (0%)" "$(head -1 <<< "$ninja")"
check "ninja: the error passes" "f57.cpp:3:1: error: expected ';'" "$(grep error <<< "$ninja")"
check "ninja: the last line" "building: 200 of 200 (100%)" "$(tail -1 <<< "$ninja")"

ctest=$({ for i in $(seq 1 30); do
  echo "      Start $i: Suite.Test$i"
  if [ "$i" -eq 7 ]; then
    echo " $i/30 Test  #$i: Suite.Test$i ..........***Failed    0.50 sec"
  else
    echo " $i/30 Test  #$i: Suite.Test$i ..........   Passed    0.10 sec"
  fi
done; echo "97% tests passed, 1 tests failed out of 30"; } | bc_every_tenth testing | strip_clock)
check "ctest: no Start line" 0 "$(grep -c Start <<< "$ctest")"
check "ctest: the failure passes" 1 "$(grep -c 'Suite.Test7 .*Failed' <<< "$ctest")"
check "ctest: the summary passes" "97% tests passed, 1 tests failed out of 30" "$(tail -1 <<< "$ctest")"
check "ctest: one line per tenth" 11 "$(grep -c '^testing: ' <<< "$ctest")"

( set -e; bc_build /nonexistent-build-folder > /dev/null 2>&1 )
check "a failing build's exit code" 1 "$?"

[ "$failures" -eq 0 ] && echo "progress_test: all checks passed"
exit "$failures"
