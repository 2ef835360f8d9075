perfgate_unit_test(baselines_tests
  SOURCES unit/baselines/store_test.cpp unit/baselines/policies_test.cpp
          unit/baselines/maintenance_test.cpp unit/baselines/gbench_test.cpp
          unit/baselines/nccl_tests_test.cpp unit/baselines/nccl_tests_launchers_test.cpp
          unit/baselines/nccl_tests_xml_test.cpp unit/baselines/nccl_tests_gathered_test.cpp
          unit/baselines/nccl_tests_stamped_test.cpp
          unit/baselines/start_time_test.cpp
          unit/baselines/verdicts_test.cpp
  LIBS perfgate_baselines SQLite::SQLite3)
