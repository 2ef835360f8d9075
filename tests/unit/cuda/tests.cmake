# CUDA backend: host-side logic (models, NVML-absent path, validation) runs without a GPU;
# the GPU test skips with a message when no device is present.
if(TARGET perfgate_cuda_kernels)
  perfgate_unit_test(cuda_host_tests
    SOURCES unit/cuda/traffic_model_test.cpp unit/cuda/nvml_probe_test.cpp unit/cuda/validation_test.cpp
            unit/cuda/throttle_retake_test.cpp
            unit/cuda/gpu_kernels_test.cpp unit/cuda/cudnn_graph_test.cpp
            unit/cuda/table_output_test.cpp ${PROJECT_SOURCE_DIR}/microbench/cuda/tools/table_output.cpp
    LIBS perfgate_cuda_kernels)
  # The cuDNN graph tests describe graphs through the library's internal headers; the table
  # test formats through the device check's own.
  target_include_directories(cuda_host_tests PRIVATE ${PROJECT_SOURCE_DIR}/microbench/cuda/src
                             ${PROJECT_SOURCE_DIR}/microbench/cuda/tools)
endif()
