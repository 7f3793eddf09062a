# Report writers: HTML report and JUnit XML (paths relative to tests/).
bc_test(reports_test SOURCES reports/html_report_test.cpp reports/junit_writer_test.cpp reports/regression_draft_test.cpp LIBS bc_reports)
