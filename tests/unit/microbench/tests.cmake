perfgate_unit_test(microbench_registry_example SOURCES unit/microbench/registry_example_test.cpp
  LIBS perfgate_mb_harness)
perfgate_unit_test(microbench_families SOURCES unit/microbench/families_test.cpp LIBS perfgate_microbench)
perfgate_unit_test(microbench_sampling SOURCES unit/microbench/sampling_test.cpp LIBS perfgate_mb_harness)
perfgate_unit_test(microbench_suite SOURCES unit/microbench/suite_test.cpp LIBS perfgate_microbench)
# The harness overhead benchmark runs briefly so it cannot rot; its figures are in docs/suites.md.
add_test(NAME microbench_harness_bench_smoke
  COMMAND perfgate_harness_bench --benchmark_min_time=0.01 --benchmark_filter=/100$)
set_tests_properties(microbench_harness_bench_smoke PROPERTIES LABELS "bench" TIMEOUT 60)
perfgate_unit_test(microbench_backend_selection SOURCES unit/microbench/backend_selection_test.cpp
  LIBS perfgate_mb_harness)
# The CUDA backend's host side (clock notes, the no-device path); with a GPU it also measures.
if(TARGET perfgate_mb_cuda)
  perfgate_unit_test(microbench_cuda_backend SOURCES unit/microbench/cuda_backend_test.cpp
    LIBS perfgate_microbench)
endif()
perfgate_unit_test(microbench_ceilings SOURCES unit/microbench/ceilings_test.cpp LIBS perfgate_mb_harness)
perfgate_unit_test(microbench_affinity SOURCES unit/microbench/affinity_test.cpp LIBS perfgate_mb_harness)
