#pragma once
// Test helper shared by the adapter tests: the result of one series in a run, or a test failure.
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "perfgate/core/model.hpp"

namespace perfgate::test {

inline const Result& find_series(const Run& run, const std::string& id) {
  for (const auto& r : run.results)
    if (r.key.id() == id) return r;
  FAIL("no series " << id);
  throw std::logic_error("unreachable");
}

}  // namespace perfgate::test
