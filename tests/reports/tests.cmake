# Report writers: HTML report (page and parts) and JUnit XML (paths relative to tests/).
bc_test(reports_test SOURCES reports/html_report_test.cpp reports/html_text_test.cpp reports/shape_picture_test.cpp
        reports/finding_html_test.cpp reports/coverage_html_test.cpp reports/junit_writer_test.cpp
        reports/regression_draft_test.cpp LIBS bc_reports)

