# The set-up's and the two commands' progress lines (scripts/progress.sh) on canned ninja and ctest output.
add_test(NAME progress_lines COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/scripts/progress_test.sh ${CMAKE_SOURCE_DIR})
