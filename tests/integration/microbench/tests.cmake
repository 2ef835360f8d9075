perfgate_integration_test(microbench_run_smoke microbench/run_smoke.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_options microbench/run_options.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_faults microbench/run_faults.sh TIMEOUT 120)
# Needs `perfgate compare` (the comparator's command).
perfgate_integration_test(microbench_run_regression_e2e microbench/run_regression_e2e.sh MEASURES LABELS e2e TIMEOUT 180)
perfgate_integration_test(microbench_run_without_gpu microbench/run_without_gpu.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_ceilings microbench/run_ceilings.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_wrap microbench/run_wrap.sh TIMEOUT 120)
# The harness's NVTX phase ranges, seen through a test injection library (tests/support).
if(PERFGATE_HAVE_NVTX)
  add_library(perfgate_nvtx_recorder MODULE ${CMAKE_CURRENT_SOURCE_DIR}/support/nvtx_recorder.cpp)
  target_include_directories(perfgate_nvtx_recorder SYSTEM PRIVATE ${PERFGATE_NVTX3_INCLUDE_DIR})
  perfgate_warnings(perfgate_nvtx_recorder)
  perfgate_integration_test(microbench_run_nvtx microbench/run_nvtx.sh TIMEOUT 120)
  set_property(TEST microbench_run_nvtx APPEND PROPERTY ENVIRONMENT
    "NVTX_RECORDER=$<TARGET_FILE:perfgate_nvtx_recorder>")
endif()
perfgate_integration_test(microbench_run_gpu_fingerprint microbench/run_gpu_fingerprint.sh TIMEOUT 120)
