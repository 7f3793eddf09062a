bc_test(engine_test
  SOURCES engine/shape_test.cpp engine/broadcast_test.cpp engine/expand_test.cpp engine/inplace_test.cpp
          engine/sum_to_test.cpp engine/sum_to_kernel_test.cpp engine/matmul_shape_test.cpp engine/dtype_test.cpp
          engine/overlap_test.cpp engine/tensor_test.cpp engine/elementwise_test.cpp engine/autograd_test.cpp
          engine/autograd_ops_test.cpp engine/addcmul_test.cpp engine/products_test.cpp engine/autograd_products_test.cpp
          engine/autograd_addcmul_test.cpp engine/op_table_test.cpp engine/error_texts_test.cpp
          engine/half_precision_test.cpp engine/scalar_overflow_test.cpp engine/out_form_test.cpp engine/reduction_test.cpp
          engine/fill_test.cpp
  LIBS bc_engine bc_properties)
