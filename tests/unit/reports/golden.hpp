#pragma once
// Golden files under tests/data/reports/golden/. PERFGATE_UPDATE_GOLDEN=1 rewrites them
// (review the diff before committing).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

namespace perfgate::report::testing {

inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(PERFGATE_TEST_DATA) + "/reports/golden/" + name;
  if (const char* update = std::getenv("PERFGATE_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(path, std::ios::binary) << actual;
  }
  std::ifstream f(path, std::ios::binary);
  INFO("golden file " << path << " (PERFGATE_UPDATE_GOLDEN=1 rewrites it)");
  REQUIRE(f.good());
  std::stringstream expected;
  expected << f.rdbuf();
  CHECK(actual == expected.str());
}

}  // namespace perfgate::report::testing
