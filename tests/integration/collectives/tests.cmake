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
  # A test that runs every rank with a PMPI interposer (tests/support/NAME.cpp) preloaded; the
  # script finds the built module through the environment variable VAR.
  function(perfgate_interposed_mpi_test test script name var)
    add_library(perfgate_${name} MODULE ${CMAKE_CURRENT_SOURCE_DIR}/support/${name}.cpp)
    target_link_libraries(perfgate_${name} PRIVATE MPI::MPI_CXX)
    perfgate_warnings(perfgate_${name})
    perfgate_integration_test(${test} ${script} LABELS mpi TIMEOUT 300)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "${var}=$<TARGET_FILE:perfgate_${name}>")
  endfunction()
  # -i, -m, -z as nccl-tests has them; a PMPI call counter shows how each timed loop launched
  # its operations.
  perfgate_interposed_mpi_test(collectives_nccl_tests_options collectives/nccl_tests_options.sh
    mpi_call_counter MPI_CALL_COUNTER)
  # The data check against an MPI made to deliver wrong results.
  perfgate_interposed_mpi_test(collectives_data_check_faults collectives/data_check_faults.sh
    mpi_faults MPI_FAULTS)
  set_tests_properties(collectives_nccl_tests_options collectives_mpi_operations collectives_stragglers_watchdog collectives_table_roundtrip
    collectives_modes collectives_nccl_tests_compare collectives_nccl_no_device collectives_memory_limit
    collectives_nccl_tests_reports collectives_split_groups collectives_data_check_faults PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK mpi_cores)
endif()
