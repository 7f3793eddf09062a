# Drives the real build/broadcheck binary, as CI and users do.
bc_test(cli_test SOURCES cli/cli_test.cpp LIBS nlohmann_json::nlohmann_json)
bc_test(inputs_cli_test SOURCES cli/inputs_cli_test.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(inputs_cli_test broadcheck)
add_dependencies(cli_test broadcheck)
# junit.xml of real runs against tests/reports/junit.xsd (xmllint, Debian's libxml2-utils).
bc_test(junit_cli_test SOURCES cli/junit_cli_test.cpp)
add_dependencies(junit_cli_test broadcheck)
bc_test(merge_test SOURCES cli/merge_test.cpp builtin_registry.cpp LIBS bc_cli PER_SUITE)
add_dependencies(merge_test broadcheck)
# The op x implementation matrix (every op of the table on every implementation, in process).
bc_test(op_support_test SOURCES cli/op_support_test.cpp builtin_registry.cpp LIBS bc_cli PER_SUITE)
bc_test(protocol_cli_test SOURCES cli/protocol_cli_test.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(protocol_cli_test broadcheck engine_adapter)
# `broadcheck list oracles` with adapters: what each declared.
bc_test(list_command_test SOURCES cli/list_command_test.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(list_command_test broadcheck engine_adapter)
# The README's example adapter (docs/examples/mini_adapter.py), working and broken.
bc_test(example_adapter_test SOURCES cli/example_adapter_test.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(example_adapter_test broadcheck)
bc_test(jobs_test SOURCES cli/jobs_test.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(jobs_test broadcheck)
# The output folder, in process.
bc_test(cli_parts_test SOURCES cli/outputs_test.cpp builtin_registry.cpp LIBS bc_cli PER_SUITE)
# The parsers of every input under RapidCheck-generated garbage and mutations of real lines.
bc_test(parser_fuzz_test SOURCES cli/parser_fuzz_test.cpp builtin_registry.cpp LIBS bc_cli PER_SUITE)
# Each declaration replayed on its own corpus cases and judged again without it.
bc_test(declarations_replay_test SOURCES cli/declarations_replay_test.cpp builtin_registry.cpp LIBS bc_cli PER_SUITE)
add_dependencies(declarations_replay_test broadcheck)
# Broken adapters (a short batch, a crash at request N, a hang, huge and deep answers, stderr spam) through run.
bc_test(adapter_fault_cli_test SOURCES cli/adapter_fault_cli_test.cpp LIBS nlohmann_json::nlohmann_json)
add_dependencies(adapter_fault_cli_test broadcheck)
# A finding's printed commands replayed from another folder give the run's verdict.
bc_test(replay_commands_test SOURCES cli/replay_commands_test.cpp LIBS nlohmann_json::nlohmann_json)
target_include_directories(replay_commands_test PRIVATE ${CMAKE_SOURCE_DIR})
add_dependencies(replay_commands_test broadcheck)
