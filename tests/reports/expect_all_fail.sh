#!/bin/sh
# Runs the GoogleTest tests of one suite and passes only when every one of them fails, and there are N of them:
# the drafts of LibTorch's departures must each show the departure.   Usage: expect_all_fail.sh BINARY SUITE N
binary=$1 suite=$2 want=$3
out=$("$binary" --gtest_filter="$suite.*" 2>&1)
echo "$out"
failed=$(echo "$out" | grep -c "^\[  FAILED  \] $suite\..* ms)$")
passed=$(echo "$out" | grep -c "^\[       OK \] $suite\.")
echo "expect_all_fail: $failed of $want tests of $suite failed as they should, $passed passed"
[ "$failed" -eq "$want" ] && [ "$passed" -eq 0 ]
