# Report writers: HTML report (page and parts) and JUnit XML (paths relative to tests/).
bc_test(reports_test SOURCES reports/html_report_test.cpp reports/html_text_test.cpp reports/shape_picture_test.cpp
        reports/finding_html_test.cpp reports/coverage_html_test.cpp reports/junit_writer_test.cpp
        reports/regression_draft_test.cpp reports/torch_draft_test.cpp reports/results_line_test.cpp reports/verdict_test.cpp
        reports/results_counts_test.cpp reports/results_filter_test.cpp reports/markdown_summary_test.cpp
        reports/jsonl_writer_test.cpp
        builtin_registry.cpp LIBS bc_cli PER_SUITE)

# report.html in a real browser: headless Chromium driven by Selenium, from Debian's chromium, chromium-driver and
# python3-selenium (scripts/setup.sh installs them; a missing one fails the test with the package's name). Debian's
# /usr/bin/python3, not whatever python3 is first on PATH, finds Debian's selenium. Screenshots: build/artifacts/.
add_test(NAME html_report_browser
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/reports/html_report_browser_test.py
                 --broadcheck $<TARGET_FILE:broadcheck> --corpus ${CMAKE_SOURCE_DIR}/corpus
                 --artifacts ${CMAKE_BINARY_DIR}/artifacts)
set_tests_properties(html_report_browser PROPERTIES TIMEOUT 600)

# Regression drafts against the real LibTorch: a generator writes drafts for generated cases (asserting LibTorch's
# own outcome: they must pass) and for LibTorch's declared departures (asserting the rule: they must fail), and
# the build compiles them (one translation unit with LibTorch's headers, about 20 s).
add_executable(make_torch_drafts reports/make_torch_drafts.cpp)
target_link_libraries(make_torch_drafts PRIVATE bc_cli)
target_compile_options(make_torch_drafts PRIVATE -Wall -Wextra $<$<CONFIG:Release>:-O0>)
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/torch_drafts.cpp
                   COMMAND make_torch_drafts ${CMAKE_CURRENT_BINARY_DIR}/torch_drafts.cpp
                   DEPENDS make_torch_drafts)
add_executable(torch_draft_replay ${CMAKE_CURRENT_BINARY_DIR}/torch_drafts.cpp)
target_link_libraries(torch_draft_replay PRIVATE torch GTest::gtest GTest::gtest_main)
target_compile_options(torch_draft_replay PRIVATE $<$<CONFIG:Release>:-O0>)  # as the tests' own code
add_test(NAME torch_drafts_reproduce_libtorch COMMAND torch_draft_replay --gtest_filter=DraftOfTorch.*)
add_test(NAME torch_drafts_show_departures
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/reports/expect_all_fail.sh $<TARGET_FILE:torch_draft_replay> DraftOfRule 4)
