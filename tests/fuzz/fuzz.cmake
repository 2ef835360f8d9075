# libFuzzer targets over every parser of external input (PERFGATE_FUZZ=ON, clang; preset `fuzz`).
#   cmake --preset fuzz && cmake --build --preset fuzz --target perfgate_fuzzers
#   ctest --test-dir build/fuzz -L fuzz      # each target for PERFGATE_FUZZ_SECONDS on its seeds
# Crashing inputs found here are kept in tests/data/reliability/regressions/ and replayed by
# the normal unit tests (reliability_tests), so a fixed crash stays fixed in every build.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "PERFGATE_FUZZ needs clang (libFuzzer): use the `fuzz` preset")
endif()
set(PERFGATE_FUZZ_SECONDS 20 CACHE STRING "Seconds each fuzz target runs under ctest")
set(_pg_fuzz_flags -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined)

# The libraries under test carry coverage and sanitizer instrumentation too: a fuzzer only
# steers into code it can see. Linking them pulls the runtimes into every consumer.
function(perfgate_fuzz_instrument lib)
  get_target_property(type ${lib} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    target_compile_options(${lib} PRIVATE ${_pg_fuzz_flags})
    target_link_options(${lib} INTERFACE -fsanitize=fuzzer-no-link,address,undefined)
  endif()
endfunction()

add_custom_target(perfgate_fuzzers)

# perfgate_fuzz_target(NAME SOURCE src LIBS libs SEEDS dirs... [DEFINES d...])
function(perfgate_fuzz_target name)
  cmake_parse_arguments(ARG "" "SOURCE" "LIBS;SEEDS;DEFINES" ${ARGN})
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${ARG_SOURCE})
  target_compile_options(${name} PRIVATE ${_pg_fuzz_flags})
  target_compile_definitions(${name} PRIVATE ${ARG_DEFINES})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  perfgate_warnings(${name})
  add_dependencies(perfgate_fuzzers ${name})
  # New inputs go to the first folder (in the build tree); the seed folders are only read.
  set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus/${name})
  file(MAKE_DIRECTORY ${work})
  add_test(NAME ${name}
    COMMAND ${name} -max_total_time=${PERFGATE_FUZZ_SECONDS} -timeout=10 -rss_limit_mb=2048
            -max_len=65536 -print_final_stats=1 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz-crash-${name}-
            ${work} ${ARG_SEEDS})
  set_tests_properties(${name} PROPERTIES LABELS fuzz
    TIMEOUT 300)
endfunction()

set(_pg_seeds ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds)
set(_pg_corpus ${PROJECT_SOURCE_DIR}/../shared/corpus)

perfgate_fuzz_instrument(perfgate_core)
perfgate_fuzz_target(fuzz_document SOURCE fuzz_document.cpp LIBS perfgate_core
  SEEDS ${_pg_seeds}/document ${_pg_corpus}/gbench)
perfgate_fuzz_target(fuzz_series SOURCE fuzz_series.cpp LIBS perfgate_core
  SEEDS ${_pg_seeds}/series)
perfgate_fuzz_target(fuzz_suites SOURCE fuzz_suites.cpp LIBS perfgate_core
  SEEDS ${PROJECT_SOURCE_DIR}/suites ${_pg_seeds}/suites)

# Ingest adapters (Google Benchmark JSON, nccl-tests logs) once the store's library has them.
get_target_property(_pg_baselines_type perfgate_baselines TYPE)
if(NOT _pg_baselines_type STREQUAL "INTERFACE_LIBRARY")
  perfgate_fuzz_instrument(perfgate_baselines)
  perfgate_fuzz_target(fuzz_ingest_gbench SOURCE fuzz_ingest.cpp LIBS perfgate_baselines
    DEFINES PERFGATE_FUZZ_FORMAT=gbench SEEDS ${_pg_corpus}/gbench ${PROJECT_SOURCE_DIR}/tests/data/baselines)
  perfgate_fuzz_target(fuzz_ingest_nccl SOURCE fuzz_ingest.cpp LIBS perfgate_baselines
    DEFINES PERFGATE_FUZZ_FORMAT=nccl_tests SEEDS ${PROJECT_SOURCE_DIR}/tests/data/baselines)
endif()

# The sweep's readers: plan files, the documents the workloads write at each point, srun's log.
perfgate_fuzz_instrument(perfgate_scaling)
perfgate_fuzz_target(fuzz_sweep_plan SOURCE fuzz_sweep.cpp LIBS perfgate_scaling
  DEFINES PERFGATE_FUZZ_READER=parse_plan_file_text
  SEEDS ${PROJECT_SOURCE_DIR}/suites ${PROJECT_SOURCE_DIR}/tests/data/scaling)
perfgate_fuzz_target(fuzz_sweep_point SOURCE fuzz_sweep.cpp LIBS perfgate_scaling
  DEFINES PERFGATE_FUZZ_READER=read_point_document_text SEEDS ${_pg_seeds}/sweep_point)
perfgate_fuzz_target(fuzz_sweep_srun_log SOURCE fuzz_sweep.cpp LIBS perfgate_scaling
  DEFINES PERFGATE_FUZZ_READER=read_srun_log_text SEEDS ${_pg_seeds}/srun_log)
