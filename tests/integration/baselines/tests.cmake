perfgate_integration_test(baselines_store_cli baselines/store_cli.sh TIMEOUT 120)
# A tiny run of the store benchmark: proves it builds and runs; the real figures are in docs/store.md.
add_test(NAME baselines_store_bench_smoke
  COMMAND perfgate_store_bench --benchmark_min_time=0.01)
set_tests_properties(baselines_store_bench_smoke PROPERTIES LABELS "integration"
  ENVIRONMENT "PERFGATE_BENCH_SERIES=50;PERFGATE_BENCH_SAMPLES=5;PERFGATE_BENCH_HISTORY_RUNS=10;PERFGATE_BENCH_HISTORY_SERIES=20")
perfgate_integration_test(baselines_verdict_loop baselines/verdict_loop.sh TIMEOUT 120)
