#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "perfgate/collectives/iteration_stats.hpp"

using namespace perfgate::collectives;

TEST_CASE("per-iteration statistics: minimum, maximum, nearest-rank p99, population CV") {
  // 1..200 shuffled: the 198th smallest is 99 % of 200; population stdev of 1..200 is 57.7343.
  std::vector<double> times(200);
  std::iota(times.begin(), times.end(), 1.0);
  std::swap(times[0], times[150]);
  const IterationStats s = iteration_stats(times);
  CHECK(s.min_us == 1);
  CHECK(s.max_us == 200);
  CHECK(s.p99_us == 198);
  CHECK(s.cv_pct == Approx(57.7343 / 100.5 * 100).epsilon(1e-5));
}

TEST_CASE("under 100 iterations p99 is the maximum, as nccl-tests warns") {
  const std::vector<double> twenty{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 9};
  CHECK(iteration_stats(twenty).p99_us == 9);
  const std::vector<double> one{3.5};
  const IterationStats s = iteration_stats(one);
  CHECK(s.min_us == 3.5);
  CHECK(s.p99_us == 3.5);
  CHECK(s.cv_pct == 0);
  const std::vector<double> zeros{0, 0};
  CHECK(iteration_stats(zeros).cv_pct == 0);  // no division by a zero mean
}
