# CLI helpers of `perfgate compare` and `perfgate detect`.
target_sources(perfgate PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/regress_sources.cpp
  ${CMAKE_CURRENT_LIST_DIR}/regress_detect_output.cpp
)
