# Reliability: preflight checks, malformed-input regressions, source audits; fuzzers when
# PERFGATE_FUZZ is on (see tests/fuzz/fuzz.cmake).
perfgate_unit_test(reliability_tests
  SOURCES unit/reliability/preflight_test.cpp unit/reliability/malformed_inputs_test.cpp
  LIBS perfgate_mb_preflight)
perfgate_unit_test(reliability_store_tests
  SOURCES unit/reliability/read_only_store_test.cpp
  LIBS perfgate_baselines)

if(PERFGATE_FUZZ)
  include(${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz.cmake)
endif()

# Inputs that still crash a parser owned elsewhere (tests/data/reliability/known_failures/):
# disabled so CI stays green; enable once fixed (ctest -R reliability_known_failures).
add_test(NAME reliability_known_failures COMMAND reliability_tests "[known-failure]")
set_tests_properties(reliability_known_failures PROPERTIES LABELS "unit;known-failure" DISABLED TRUE)
