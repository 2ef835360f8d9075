# CLI helpers of `perfgate gate` and `perfgate report` (owned with regress/report).
target_sources(perfgate PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/report_output.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_material.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_comparison.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_blocks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_pool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_rerun.cpp
)
