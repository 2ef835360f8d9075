target_sources(perfgate PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sweep_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_programs.cpp
)
