# Generator contracts and coverage run on the engine alone; the property tests run all three oracles.
bc_test(shape_gen_test SOURCES properties/shape_gen_test.cpp properties/shape_set_test.cpp properties/case_shrinks_test.cpp
          properties/op_choice_test.cpp properties/op_weights_test.cpp properties/graph_gen_test.cpp
          properties/zero_scalar_test.cpp properties/value_class_gen_test.cpp properties/out_gen_test.cpp properties/fill_gen_test.cpp properties/number_gen_test.cpp properties/exec_test.cpp
          test_panel.cpp
          LIBS bc_properties bc_oracle_engine)
if(NOT BC_SANITIZE)  # bc_cli links LibTorch and xtensor, which the sanitizer build leaves out
  if(BC_PROPERTY_SEED STREQUAL "")
    set(property_env "")
  else()
    set(property_env "RC_PARAMS=seed=${BC_PROPERTY_SEED}")
  endif()
  bc_test(properties_test SOURCES properties/registry_test.cpp builtin_registry.cpp LIBS bc_cli ENV ${property_env} PER_SUITE)
endif()
