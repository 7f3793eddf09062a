# The CI templates (.github/workflows/conformance.yml, ci/gitlab/conformance.yml) played locally with the built
# broadcheck: N shards and the merge against an unsharded run (PyYAML: Debian's python3-yaml, with /usr/bin/python3).
add_test(NAME ci_templates
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/ci/ci_templates_test.py ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(ci_templates PROPERTIES TIMEOUT 900)
