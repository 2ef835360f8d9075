# `perfgate verdicts`: reads back what `perfgate compare` saved.
target_sources(perfgate PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cmd_verdicts.cpp)
