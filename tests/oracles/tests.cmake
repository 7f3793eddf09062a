# The classifier needs no LibTorch; the oracle tests call LibTorch and xtensor for real.
bc_test(torch_errors_test SOURCES oracles/torch_errors_test.cpp LIBS bc_torch_errors)
bc_test(oracles_test
  SOURCES oracles/engine_oracle_test.cpp oracles/torch_oracle_test.cpp oracles/xtensor_oracle_test.cpp
          oracles/xtensor_grads_test.cpp oracles/xtensor_values_test.cpp oracles/xtensor_products_test.cpp
          oracles/xtensor_narrow_integers_test.cpp
  LIBS bc_oracle_engine bc_oracle_torch bc_oracle_xtensor xtensor PER_SUITE)
# The held types of xtensor's conversions against xtensor's own element functors (no LibTorch).
bc_test(xtensor_conversions_test SOURCES oracles/xtensor_conversions_test.cpp LIBS bc_oracle_xtensor xtensor)
bc_test(document_oracle_test SOURCES oracles/document_oracle_test.cpp LIBS bc_oracle_document)
bc_test(isolated_oracle_test SOURCES oracles/isolated_oracle_test.cpp LIBS bc_oracle_process bc_oracle_engine)
bc_test(protocol_test SOURCES oracles/protocol_test.cpp LIBS bc_oracle_process)
bc_test(external_oracle_test SOURCES oracles/external_oracle_test.cpp LIBS bc_oracle_process)
add_dependencies(external_oracle_test engine_adapter)
bc_test(gated_oracle_test SOURCES oracles/gated_oracle_test.cpp LIBS bc_oracle_process)
bc_test(numpy_adapter_test SOURCES oracles/numpy_adapter_test.cpp LIBS bc_oracle_process)
bc_test(xtensor_variants_test
  SOURCES oracles/xtensor_variant_test.cpp oracles/xtensor_noalias_test.cpp oracles/xtensor_rank_test.cpp
          oracles/xtensor_fixed_test.cpp oracles/xtensor_lazy_test.cpp
  LIBS bc_oracle_engine bc_oracle_xtensor bc_oracle_process xtensor)
# Drives node oracles/onnxruntime/adapter.mjs (its node_modules from scripts/setup.sh) and, for the planted bug,
# build/broadcheck.
bc_test(onnxruntime_adapter_test SOURCES oracles/onnxruntime_adapter_test.cpp LIBS bc_oracle_process nlohmann_json::nlohmann_json)
add_dependencies(onnxruntime_adapter_test broadcheck)
# Drives node oracles/tfjs/adapter.mjs on both backends (its node_modules from scripts/setup.sh) and, for the planted
# bug, build/broadcheck.
bc_test(tfjs_adapter_test SOURCES oracles/tfjs_adapter_test.cpp LIBS bc_oracle_process nlohmann_json::nlohmann_json)
add_dependencies(tfjs_adapter_test broadcheck)
# Each implementation's binding table has a cell for every op (oracles/binding_table.h).
bc_test(binding_table_test SOURCES oracles/binding_table_test.cpp LIBS bc_oracle_engine bc_oracle_document bc_oracle_torch bc_oracle_xtensor)
# The adapters' own tables bind or refuse every op (their modules read with python3 and node).
bc_test(adapter_tables_test SOURCES oracles/adapter_tables_test.cpp LIBS bc_engine nlohmann_json::nlohmann_json)
# What xtensor's debug and sanitized adapters (oracles/xtensor_adapter.cpp) keep of a report.
bc_test(xtensor_report_test SOURCES oracles/xtensor_report_test.cpp ${CMAKE_SOURCE_DIR}/oracles/xtensor_report.cpp
        LIBS bc_engine)
