# The run layer (run/): one case run, judged and shrunk, on the engine and the three registered names of the test
# panel (built by the sanitizer build too); then the parts of the run loop, in process.
bc_test(run_case_test SOURCES run/evaluate_test.cpp run/shrink_test.cpp run/finite_difference_test.cpp test_panel.cpp
        LIBS bc_run_case bc_oracle_engine)
if(NOT BC_SANITIZE)  # bc_run links the reports and the oracles' processes, which the sanitizer build leaves out
  bc_test(run_test SOURCES run/declaration_scope_test.cpp run/reproduce_token_test.cpp run/exit_codes_test.cpp test_panel.cpp
          LIBS bc_run)
endif()
