# Needs only python3: judges recorded device-check output, no GPU or CUDA build.
perfgate_integration_test(cuda_device_targets cuda/device_targets.sh LABELS cuda)
if(TARGET perfgate_device_check)
  perfgate_integration_test(cuda_device_check cuda/device_check.sh LABELS cuda TIMEOUT 900)
  set_property(TEST cuda_device_check APPEND PROPERTY ENVIRONMENT
    "PERFGATE_DEVICE_CHECK=$<TARGET_FILE:perfgate_device_check>")
  # The nvcc-only build of scripts/device-check (about 1.5 minutes on 2 cores), run alone: two
  # nvcc processes on a 2-core machine would slow the timing tests running beside it.
  perfgate_integration_test(cuda_device_check_script cuda/device_check_script.sh LABELS cuda TIMEOUT 900)
  set_property(TEST cuda_device_check_script PROPERTY RUN_SERIAL TRUE)
endif()
if(TARGET perfgate_mb_cuda AND TARGET perfgate-microbench)
  perfgate_integration_test(cuda_registry_backend cuda/registry_backend.sh LABELS cuda TIMEOUT 600)
  set_property(TEST cuda_registry_backend APPEND PROPERTY ENVIRONMENT
    "PERFGATE_DEVICE_CHECK=$<TARGET_FILE:perfgate_device_check>")
endif()
if(TARGET perfgate_device_check AND TARGET perfgate-collectives AND TARGET perfgate-step-proxy)
  perfgate_integration_test(cuda_device_pack cuda/device_pack.sh LABELS cuda mpi TIMEOUT 600)
endif()
