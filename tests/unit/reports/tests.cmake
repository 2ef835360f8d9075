perfgate_unit_test(reports_tests
  SOURCES unit/reports/sample_comparison.cpp unit/reports/markdown_test.cpp
          unit/reports/junit_test.cpp unit/reports/terminal_test.cpp unit/reports/format_test.cpp
  LIBS perfgate_report pugixml::pugixml)

# Not a test itself: renders the sample report for the browser test.
add_executable(perfgate_render_sample unit/reports/render_sample_main.cpp unit/reports/sample_comparison.cpp)
target_link_libraries(perfgate_render_sample PRIVATE perfgate_report)
perfgate_warnings(perfgate_render_sample)
