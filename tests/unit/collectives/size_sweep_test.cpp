#include <catch2/catch.hpp>

#include "perfgate/collectives/size_sweep.hpp"
#include "perfgate/core/error.hpp"

using namespace perfgate::collectives;

namespace {

SizeSteps factor(std::size_t f) {
  return {f, std::size_t{1} << 20};
}
SizeSteps increment(std::size_t bytes) {
  return {1, bytes};
}

}  // namespace

TEST_CASE("the sweep multiplies by the factor up to the maximum") {
  CHECK(size_sweep(8, 128, factor(2)) == std::vector<std::size_t>{8, 16, 32, 64, 128});
  CHECK(size_sweep(8, 100, factor(4)) == std::vector<std::size_t>{8, 32});
  CHECK(size_sweep(1024, 1024, factor(2)) == std::vector<std::size_t>{1024});
  CHECK_THROWS_AS(size_sweep(16, 8, factor(2)), perfgate::InputError);
  CHECK_THROWS_AS(size_sweep(8, 16, factor(0)), perfgate::InputError);
  // The largest sizes do not wrap around.
  CHECK(size_sweep(std::size_t{1} << 62, SIZE_MAX, factor(2)).size() == 2);
}

TEST_CASE("a factor of 1 steps by a fixed increment, as nccl-tests' -f 1 -i N") {
  CHECK(size_sweep(1 << 20, 4 << 20, increment(1 << 20)) ==
        std::vector<std::size_t>{1 << 20, 2 << 20, 3 << 20, 4 << 20});
  CHECK(size_sweep(100, 350, increment(100)) == std::vector<std::size_t>{100, 200, 300});
  CHECK(size_sweep(8, 8, increment(1)) == std::vector<std::size_t>{8});
  CHECK(size_sweep(SIZE_MAX - 10, SIZE_MAX, increment(8)).size() == 2);
  CHECK_THROWS_AS(size_sweep(8, 16, increment(0)), perfgate::InputError);
}

TEST_CASE("a fixed increment that would make more sizes than the limit is refused") {
  CHECK(size_sweep(1, max_sweep_sizes, increment(1)).size() == max_sweep_sizes);
  try {
    size_sweep(8, std::size_t{8} << 30, increment(8));
    FAIL("accepted a sweep of a billion sizes");
  } catch (const perfgate::InputError& e) {
    CHECK(std::string(e.what()) ==
          "--stepbytes: 8 B from --minbytes 8 to --maxbytes 8589934592 makes more than 10000 "
          "sizes");
  }
}

TEST_CASE("the table header names the step as nccl-tests does") {
  CHECK(factor(2).header_text() == "2(factor)");
  CHECK(increment(1048576).header_text() == "1048576(bytes)");
}

TEST_CASE("a byte budget (-s) gives each size as many iterations as fit, from 1 to -n") {
  CHECK(iterations_within(20, std::nullopt, 1 << 20) == 20);
  CHECK(iterations_within(8, 16384, 1024) == 8);  // 16 fit; -n is the most
  CHECK(iterations_within(8, 16384, 4096) == 4);
  CHECK(iterations_within(8, 16384, 5000) == 3);  // whole iterations only
  CHECK(iterations_within(8, 16384, 16384) == 1);
  CHECK(iterations_within(8, 16384, 65536) == 1);  // never none
  CHECK(iterations_within(8, 0, 8) == 1);
  CHECK(iterations_within(8, 16384, 0) == 8);  // nccl-tests: a size of 0 runs -n
  CHECK(iterations_within(1000, SIZE_MAX, 1) == 1000);
}
