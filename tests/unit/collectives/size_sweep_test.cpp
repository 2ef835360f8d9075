#include <catch2/catch.hpp>

#include "perfgate/collectives/size_sweep.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate::collectives;

TEST_CASE("sizes take K, M and G suffixes (powers of 1024)") {
  CHECK(parse_size("8", "-b") == 8);
  CHECK(parse_size("64K", "-b") == 65536);
  CHECK(parse_size("1M", "-b") == 1048576);
  CHECK(parse_size("8G", "-e") == 8589934592ULL);
  CHECK_THROWS_WITH(parse_size("12Q", "--minbytes"),
                    Catch::Contains("--minbytes") && Catch::Contains("12Q"));
  CHECK_THROWS_AS(parse_size("", "-b"), perfgate::InputError);
  CHECK_THROWS_AS(parse_size("-1", "-b"), perfgate::InputError);
}

TEST_CASE("the sweep multiplies by the factor up to the maximum") {
  CHECK(size_sweep(8, 128, 2) == std::vector<std::size_t>{8, 16, 32, 64, 128});
  CHECK(size_sweep(8, 100, 4) == std::vector<std::size_t>{8, 32});
  CHECK(size_sweep(1024, 1024, 2) == std::vector<std::size_t>{1024});
  CHECK_THROWS_AS(size_sweep(16, 8, 2), perfgate::InputError);
  CHECK_THROWS_AS(size_sweep(8, 16, 1), perfgate::InputError);
}
