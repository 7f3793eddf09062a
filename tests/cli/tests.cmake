# Drives the real build/broadcheck binary, as CI and users do.
bc_test(cli_test SOURCES cli/cli_test.cpp LIBS)
add_dependencies(cli_test broadcheck)
