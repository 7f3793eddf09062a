# The pure-data harness layer: cases, outcomes, verdicts, declarations, corpus loading, coverage, run records
# (paths relative to tests/).
bc_test(harness_test
  SOURCES harness/case_test.cpp harness/case_numbers_test.cpp harness/number_conditions_test.cpp harness/outcome_test.cpp harness/judge_test.cpp harness/judge_declared_departures_test.cpp harness/judge_numbers_test.cpp harness/message_catalog_test.cpp harness/case_conditions_test.cpp harness/value_conditions_test.cpp harness/known_divergence_test.cpp
          harness/corpus_test.cpp harness/coverage_test.cpp harness/run_record_test.cpp harness/operands_test.cpp harness/value_classes_test.cpp harness/tolerance_test.cpp harness/values_test.cpp
          harness/implementations_test.cpp harness/scoreboard_test.cpp harness/utf8_test.cpp harness/nondeterminism_test.cpp harness/reproduction_test.cpp harness/program_test.cpp
          harness/outcome_selection_test.cpp harness/processor_test.cpp harness/adapter_fault_test.cpp harness/signature_test.cpp harness/number_text_test.cpp harness/console_test.cpp harness/element_count_test.cpp test_panel.cpp
  LIBS bc_harness)
