# The documents kept true by reading the clone (docs/ARCHITECTURE.md's list of the files an op touches).
bc_test(architecture_test SOURCES docs/architecture_test.cpp)
