perfgate_unit_test(scaling_tests
  SOURCES unit/scaling/plan_test.cpp unit/scaling/slurm_text_test.cpp unit/scaling/aggregate_test.cpp
  LIBS perfgate_scaling)
# The step proxy's bucket plan (both backends) is host-only code: tested in every build.
perfgate_unit_test(step_proxy_bucket_plan_tests
  SOURCES unit/scaling/step_proxy_bucket_plan_test.cpp ${PROJECT_SOURCE_DIR}/scaling/step_proxy/bucket_plan.cpp
  LIBS perfgate_core)
target_include_directories(step_proxy_bucket_plan_tests PRIVATE ${PROJECT_SOURCE_DIR}/scaling/step_proxy)
# The CUDA step proxy's memory estimate is host arithmetic: tested in every build.
perfgate_unit_test(step_proxy_memory_tests
  SOURCES unit/scaling/step_proxy_memory_test.cpp
  LIBS perfgate_cpu_kernels)
target_include_directories(step_proxy_memory_tests PRIVATE ${PROJECT_SOURCE_DIR}/scaling/step_proxy)
# The step proxy's gradient check: its tolerance against real bf16 ring sums, and its verdicts
# (its collective half needs MPI, as the step proxy does).
if(TARGET MPI::MPI_CXX)
  perfgate_unit_test(step_proxy_gradient_check_tests
    SOURCES unit/scaling/step_proxy_gradient_check_test.cpp ${PROJECT_SOURCE_DIR}/scaling/step_proxy/gradient_check.cpp
    LIBS perfgate_core MPI::MPI_CXX)
  target_include_directories(step_proxy_gradient_check_tests PRIVATE ${PROJECT_SOURCE_DIR}/scaling/step_proxy)
  # The CPU step proxy's memory estimate.
  perfgate_unit_test(step_proxy_host_memory_tests
    SOURCES unit/scaling/step_proxy_host_memory_test.cpp ${PROJECT_SOURCE_DIR}/scaling/step_proxy/host_memory.cpp
            ${PROJECT_SOURCE_DIR}/scaling/step_proxy/transformer.cpp
    LIBS perfgate_cpu_kernels perfgate_collectives_mpi perfgate_core MPI::MPI_CXX)
  target_include_directories(step_proxy_host_memory_tests PRIVATE ${PROJECT_SOURCE_DIR}/scaling/step_proxy)
endif()
# The CUDA step proxy's host reference of its network (the model check's side without a GPU).
perfgate_unit_test(step_proxy_host_reference_tests
  SOURCES unit/scaling/step_proxy_host_reference_test.cpp ${PROJECT_SOURCE_DIR}/scaling/step_proxy/cuda/host_reference.cpp
  LIBS perfgate_cpu_kernels)
target_include_directories(step_proxy_host_reference_tests PRIVATE ${PROJECT_SOURCE_DIR}/scaling/step_proxy)
