#include <catch2/catch.hpp>

#include "perfgate/collectives/size_sweep.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate::collectives;

TEST_CASE("the sweep multiplies by the factor up to the maximum") {
  CHECK(size_sweep(8, 128, 2) == std::vector<std::size_t>{8, 16, 32, 64, 128});
  CHECK(size_sweep(8, 100, 4) == std::vector<std::size_t>{8, 32});
  CHECK(size_sweep(1024, 1024, 2) == std::vector<std::size_t>{1024});
  CHECK_THROWS_AS(size_sweep(16, 8, 2), perfgate::InputError);
  CHECK_THROWS_AS(size_sweep(8, 16, 1), perfgate::InputError);
}
