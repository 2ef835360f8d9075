# CLI helpers of `perfgate compare`: the baseline side (policies), verdicts kept in the store.
target_sources(perfgate PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/compare_persist.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compare_baseline.cpp
)
