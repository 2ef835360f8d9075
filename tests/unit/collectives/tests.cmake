perfgate_unit_test(collectives_unit
  SOURCES
    unit/collectives/collective_test.cpp
    unit/collectives/datatype_test.cpp
    unit/collectives/narrow_reduce_test.cpp
    unit/collectives/size_sweep_test.cpp
    unit/collectives/data_pattern_test.cpp
    unit/collectives/nccl_table_test.cpp
    unit/collectives/stragglers_test.cpp
    unit/collectives/launch_env_test.cpp
    unit/collectives/result_document_test.cpp
    unit/collectives/page_aligned_test.cpp
    unit/collectives/iteration_stats_test.cpp
    unit/collectives/nccl_tests_json_test.cpp
    unit/collectives/memory_report_test.cpp
    unit/collectives/min_busbw_test.cpp
    unit/collectives/bitwise_check_test.cpp
  LIBS perfgate_mb_collectives)
add_test(NAME collectives_narrow_reduce_bench_smoke
  COMMAND perfgate_narrow_reduce_bench --benchmark_min_time=0.01 --benchmark_filter=/1/0$)
set_tests_properties(collectives_narrow_reduce_bench_smoke PROPERTIES LABELS "bench" TIMEOUT 60)
add_test(NAME collectives_data_check_bench_smoke
  COMMAND perfgate_data_check_bench --benchmark_min_time=0.01 --benchmark_filter=/0/1$)
set_tests_properties(collectives_data_check_bench_smoke PROPERTIES LABELS "bench" TIMEOUT 60)
# The nccl-tests ingester and perfgate-collectives name a case alike (docs/collectives.md).
perfgate_unit_test(collectives_nccl_names
  SOURCES unit/collectives/nccl_names_test.cpp
  LIBS perfgate_mb_collectives perfgate_baselines)
# The watchdog's bounded wait for a communicator's lock (header-only; the library needs MPI).
if(TARGET perfgate_collectives_mpi)
  perfgate_unit_test(collectives_abort_when_free
    SOURCES unit/collectives/abort_when_free_test.cpp
    LIBS perfgate_collectives_mpi Threads::Threads)
  # A rank's memory share and the message a case too big for it gets.
  perfgate_unit_test(collectives_node_memory
    SOURCES unit/collectives/node_memory_test.cpp
    LIBS perfgate_collectives_mpi)
endif()
