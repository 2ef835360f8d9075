# `perfgate run`: its helpers, and the measuring child perfgate-microbench built next to perfgate.
target_sources(perfgate PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/run_cases.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_ceilings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_measure_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_wrapper.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_progress.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_table.cpp
)
target_compile_definitions(perfgate PRIVATE
  PERFGATE_DEFAULT_SUITES_FILE="${PROJECT_SOURCE_DIR}/suites/suites.toml")
set(PERFGATE_CLI_BINARY_DIR ${CMAKE_CURRENT_BINARY_DIR})
add_subdirectory(${PROJECT_SOURCE_DIR}/microbench/runner ${PROJECT_BINARY_DIR}/microbench/runner)
add_dependencies(perfgate perfgate-microbench)
