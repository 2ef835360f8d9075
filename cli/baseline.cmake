# CLI helpers for baselines: a pooled baseline cut per series at its last change point.
target_sources(perfgate PRIVATE ${CMAKE_CURRENT_LIST_DIR}/baseline_cut.cpp)
