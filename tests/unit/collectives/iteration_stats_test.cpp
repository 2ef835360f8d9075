#include <catch2/catch.hpp>

#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgate/collectives/iteration_stats.hpp"

using namespace perfgate::collectives;

TEST_CASE("per-iteration statistics: minimum, maximum, nearest-rank p95 and p99, population CV") {
  // 1..200 shuffled: the 190th and 198th smallest are 95 % and 99 % of 200; nccl-tests' p50 is
  // the 101st (index n/2); population stdev of 1..200 is 57.7343.
  std::vector<double> times(200);
  std::iota(times.begin(), times.end(), 1.0);
  std::swap(times[0], times[150]);
  const IterationStats s = iteration_stats(times);
  CHECK(s.min_us == 1);
  CHECK(s.max_us == 200);
  CHECK(s.avg_us == 100.5);
  CHECK(s.p50_us == 101);
  CHECK(s.p95_us == 190);
  CHECK(s.p99_us == 198);
  CHECK(s.stdev_us == Approx(57.7343).epsilon(1e-5));
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

TEST_CASE("an iteration's time is its slowest rank's, every rank's times are kept") {
  const IterationTimes t = iteration_times({{5, 9, 4}, {7, 3, 4}, {6, 8, 11}});
  CHECK(t.slowest_us == std::vector<double>{7, 9, 11});
  CHECK(t.rank_us.size() == 3);
  CHECK(t.stats.min_us == 7);
  CHECK(t.stats.max_us == 11);
  CHECK(t.stats.avg_us == 9);
  CHECK_THROWS_AS(iteration_times({{1, 2}, {3}}), std::invalid_argument);  // ragged
  CHECK_THROWS_AS(iteration_times({}), std::invalid_argument);
}

TEST_CASE("skipped iterations (-K) are left out of the statistics and kept in the lists") {
  // A slow first iteration (a cold start after the warm-up) dominates the maximum unless skipped.
  const IterationTimes t = iteration_times({{90, 10, 12, 11}, {80, 9, 14, 10}}, 1);
  CHECK(t.skipped == 1);
  CHECK(t.slowest_us == std::vector<double>{90, 10, 14, 11});
  CHECK(t.rank_us[0].size() == 4);
  CHECK(t.stats.min_us == 10);
  CHECK(t.stats.max_us == 14);
  CHECK(t.stats.avg_us == Approx(35.0 / 3));
  CHECK(iteration_times({{90, 10, 12, 11}}).stats.max_us == 90);  // nothing skipped
  const nlohmann::ordered_json j = iteration_times_json(t, true);
  CHECK(j["skipped_iterations"] == 1);
  CHECK(j["times_us"] == nlohmann::json::parse("[90.0, 10.0, 14.0, 11.0]"));
  CHECK(j["per_process_max_times_us"][0].size() == 4);
  // One iteration must be left for the statistics.
  CHECK_THROWS_AS(iteration_times({{1, 2}}, 2), std::invalid_argument);
  CHECK(iteration_times({{1, 2}}, 1).stats.min_us == 2);
}

TEST_CASE("the per-iteration JSON object has nccl-tests' keys in nccl-tests' order") {
  const IterationTimes two = iteration_times({{5, 9}, {7, 3}});
  const nlohmann::ordered_json j = iteration_times_json(two, true);
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"skipped_iterations", "min_us", "max_us", "avg_us",
                                         "p50_us", "p95_us", "p99_us", "stdev_us", "cv_pct",
                                         "times_us", "per_process_max_times_us"});
  CHECK(j["times_us"] == nlohmann::json::parse("[7.0, 9.0]"));
  CHECK(j["per_process_max_times_us"] == nlohmann::json::parse("[[5.0, 9.0], [7.0, 3.0]]"));
  CHECK_FALSE(iteration_times_json(two, false).contains("per_process_max_times_us"));
  // As nccl-tests: one process writes no per-process list.
  CHECK_FALSE(
      iteration_times_json(iteration_times({{5, 9}}), true).contains("per_process_max_times_us"));
}
