# Run after a test binary is built (bc_test ... PER_SUITE in tests/CMakeLists.txt): lists its GoogleTest suites and
# writes OUT, a CTest file with one test per suite (`BINARY --gtest_filter=Suite.*`), so that a binary whose process
# takes a second to start (it links LibTorch) starts once per suite rather than once per test.
# Inputs: BINARY, OUT, TIMEOUT, ENV (a ;-list of VAR=value, may be empty).
execute_process(COMMAND "${BINARY}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE failed TIMEOUT 60)
if(failed)
  message(FATAL_ERROR "${BINARY} --gtest_list_tests failed: ${failed}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
foreach(line IN LISTS lines)
  # A suite line starts in column 0 and ends with '.', perhaps followed by "  # TypeParam = ...".
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND script "add_test([=[${suite}]=] [=[${BINARY}]=] [=[--gtest_filter=${suite}.*]=])\n")
    string(APPEND script "set_tests_properties([=[${suite}]=] PROPERTIES TIMEOUT ${TIMEOUT} ENVIRONMENT [=[${ENV}]=])\n")
  endif()
endforeach()
file(WRITE "${OUT}" "${script}")
