perfgate_unit_test(scaling_tests
  SOURCES unit/scaling/plan_test.cpp unit/scaling/slurm_text_test.cpp unit/scaling/aggregate_test.cpp
  LIBS perfgate_scaling)
