# perfgate-collectives under real mpirun processes (MPI backend, CPU only). Exit 77 = skipped:
# the scripts skip the `perfgate ingest` steps, and say so, while ingest is not built.
if(TARGET perfgate-collectives)
  perfgate_integration_test(collectives_mpi_operations collectives/mpi_operations.sh LABELS mpi TIMEOUT 400)
  perfgate_integration_test(collectives_stragglers_watchdog collectives/stragglers_watchdog.sh LABELS mpi TIMEOUT 200)
  perfgate_integration_test(collectives_table_roundtrip collectives/table_roundtrip.sh LABELS mpi TIMEOUT 200)
  perfgate_integration_test(collectives_modes collectives/modes.sh LABELS mpi TIMEOUT 300)
  perfgate_integration_test(collectives_nccl_tests_compare collectives/nccl_tests_compare.sh LABELS mpi TIMEOUT 200)
  perfgate_integration_test(collectives_nccl_no_device collectives/nccl_no_device.sh LABELS mpi TIMEOUT 300)
  perfgate_integration_test(collectives_memory_limit collectives/memory_limit.sh LABELS mpi TIMEOUT 200)
  perfgate_integration_test(collectives_nccl_tests_reports collectives/nccl_tests_reports.sh LABELS mpi TIMEOUT 200)
  perfgate_integration_test(collectives_split_groups collectives/split_groups.sh LABELS mpi TIMEOUT 300)
  # -i, -m, -z as nccl-tests has them; a PMPI call counter (tests/support) shows how each
  # timed loop launched its operations.
  add_library(perfgate_mpi_call_counter MODULE ${CMAKE_CURRENT_SOURCE_DIR}/support/mpi_call_counter.cpp)
  target_link_libraries(perfgate_mpi_call_counter PRIVATE MPI::MPI_CXX)
  perfgate_warnings(perfgate_mpi_call_counter)
  perfgate_integration_test(collectives_nccl_tests_options collectives/nccl_tests_options.sh LABELS mpi TIMEOUT 300)
  set_property(TEST collectives_nccl_tests_options APPEND PROPERTY ENVIRONMENT
    "MPI_CALL_COUNTER=$<TARGET_FILE:perfgate_mpi_call_counter>")
  # The data check against an MPI made to deliver wrong results (tests/support).
  add_library(perfgate_mpi_faults MODULE ${CMAKE_CURRENT_SOURCE_DIR}/support/mpi_faults.cpp)
  target_link_libraries(perfgate_mpi_faults PRIVATE MPI::MPI_CXX)
  perfgate_warnings(perfgate_mpi_faults)
  perfgate_integration_test(collectives_data_check_faults collectives/data_check_faults.sh LABELS mpi TIMEOUT 200)
  set_property(TEST collectives_data_check_faults APPEND PROPERTY ENVIRONMENT
    "MPI_FAULTS=$<TARGET_FILE:perfgate_mpi_faults>")
  set_tests_properties(collectives_nccl_tests_options collectives_mpi_operations collectives_stragglers_watchdog collectives_table_roundtrip
    collectives_modes collectives_nccl_tests_compare collectives_nccl_no_device collectives_memory_limit
    collectives_nccl_tests_reports collectives_split_groups collectives_data_check_faults PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK mpi_cores)
endif()
