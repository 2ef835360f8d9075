perfgate_unit_test(core_tests
  SOURCES unit/core/document_test.cpp unit/core/fingerprint_test.cpp unit/core/model_test.cpp
          unit/core/process_test.cpp unit/core/byte_size_test.cpp
          unit/core/bounded_regex_test.cpp
  LIBS perfgate_core)
