# perfgate_regress_analysis: statistics, pairwise verdicts, change points (no SQLite, no I/O).
add_library(perfgate_regress_analysis STATIC
  ${CMAKE_CURRENT_LIST_DIR}/stats/robust.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/rank_sum_distribution.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/mann_whitney.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/shift_interval.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stats/fdr.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/series_match.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/sample_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/pair_statistics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/verdict_rules.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/tolerance.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/acks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/comparison_summary.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/compare_runs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/confirmation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare/block_noise.cpp
  ${CMAKE_CURRENT_LIST_DIR}/history/split_scan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/history/changepoints.cpp
)
target_include_directories(perfgate_regress_analysis PUBLIC ${CMAKE_CURRENT_LIST_DIR}/include)
target_link_libraries(perfgate_regress_analysis PUBLIC perfgate_core PRIVATE Boost::headers fmt::fmt)
perfgate_warnings(perfgate_regress_analysis)
target_link_libraries(perfgate_regress INTERFACE perfgate_regress_analysis)

# Evaluation harness (docs/evaluation.md) and the compare-speed benchmark.
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/eval/main.cpp)
add_executable(perfgate_eval
  ${CMAKE_CURRENT_LIST_DIR}/eval/generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eval/naive_detectors.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eval/compare_eval.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eval/detect_eval.cpp
  ${CMAKE_CURRENT_LIST_DIR}/eval/main.cpp
)
target_link_libraries(perfgate_eval PRIVATE perfgate_regress_analysis fmt::fmt)
perfgate_warnings(perfgate_eval)
endif()

if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/bench/compare_bench.cpp)
add_executable(perfgate_compare_bench ${CMAKE_CURRENT_LIST_DIR}/bench/compare_bench.cpp)
target_link_libraries(perfgate_compare_bench PRIVATE perfgate_regress_analysis benchmark::benchmark)
perfgate_warnings(perfgate_compare_bench)
endif()
