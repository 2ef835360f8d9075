# Reliability: preflight checks, malformed-input regressions, source audits; fuzzers when
# PERFGATE_FUZZ is on (see tests/fuzz/fuzz.cmake).
perfgate_unit_test(reliability_tests
  SOURCES unit/reliability/preflight_test.cpp unit/reliability/malformed_inputs_test.cpp
  LIBS perfgate_mb_preflight perfgate_scaling perfgate_baselines)
perfgate_unit_test(reliability_store_tests
  SOURCES unit/reliability/read_only_store_test.cpp
  LIBS perfgate_baselines)

if(PERFGATE_FUZZ)
  include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz.cmake)
endif()

