perfgate_unit_test(regress_stats_tests
  SOURCES unit/regress/stats_test.cpp unit/regress/gbench_corpus_test.cpp
  LIBS perfgate_regress_analysis)
perfgate_unit_test(regress_compare_tests
  SOURCES unit/regress/compare_test.cpp unit/regress/compare_bad_input_test.cpp
    unit/regress/block_noise_test.cpp unit/regress/confirmation_test.cpp
  LIBS perfgate_regress_analysis)
perfgate_unit_test(regress_changepoint_tests
  SOURCES unit/regress/changepoints_test.cpp unit/regress/changepoint_corpus_test.cpp
  LIBS perfgate_regress_analysis)
