# Report writers: HTML report (page and parts) and JUnit XML (paths relative to tests/).
bc_test(reports_test SOURCES reports/html_report_test.cpp reports/html_text_test.cpp reports/shape_picture_test.cpp
        reports/finding_html_test.cpp reports/coverage_html_test.cpp reports/junit_writer_test.cpp
        reports/regression_draft_test.cpp reports/results_line_test.cpp LIBS bc_reports bc_properties)

# report.html in a real browser: headless Chromium driven by Selenium, from Debian's chromium, chromium-driver and
# python3-selenium (scripts/setup.sh installs them; a missing one fails the test with the package's name). Debian's
# /usr/bin/python3, not whatever python3 is first on PATH, finds Debian's selenium. Screenshots: build/artifacts/.
add_test(NAME html_report_browser
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/reports/html_report_browser_test.py
                 --broadcheck $<TARGET_FILE:broadcheck> --corpus ${CMAKE_SOURCE_DIR}/corpus
                 --artifacts ${CMAKE_BINARY_DIR}/artifacts)
set_tests_properties(html_report_browser PROPERTIES TIMEOUT 600)
