perfgate_unit_test(reports_tests
  SOURCES unit/reports/sample_comparison.cpp unit/reports/markdown_test.cpp
          unit/reports/junit_test.cpp unit/reports/terminal_test.cpp unit/reports/format_test.cpp
  LIBS perfgate_report pugixml::pugixml)
