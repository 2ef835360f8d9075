perfgate_integration_test(microbench_run_smoke microbench/run_smoke.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_options microbench/run_options.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_faults microbench/run_faults.sh TIMEOUT 120)
# Needs `perfgate compare` (the comparator's command).
perfgate_integration_test(microbench_run_regression_e2e microbench/run_regression_e2e.sh MEASURES LABELS e2e TIMEOUT 180)
perfgate_integration_test(microbench_run_without_gpu microbench/run_without_gpu.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_ceilings microbench/run_ceilings.sh TIMEOUT 120)
perfgate_integration_test(microbench_run_wrap microbench/run_wrap.sh TIMEOUT 120)
