#pragma once
// The per-iteration report of a timed loop (-I 1) as the newest nccl-tests computes it, so that
// its table columns and JSON objects mean the same in both programs.
#include <cstddef>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfgate::collectives {

struct IterationStats {
  double min_us = 0, max_us = 0;
  double avg_us = 0;
  double p50_us = 0;    // the (n/2)-th of the sorted times, counting from 0, as nccl-tests
  double p95_us = 0;    // nearest rank: the ceil(n * 95 / 100)-th smallest
  double p99_us = 0;    // nearest rank: the ceil(n * 99 / 100)-th smallest, the maximum below 100
  double stdev_us = 0;  // population standard deviation
  double cv_pct = 0;    // stdev over the mean, in percent (0 at mean 0)
};

// `times_us` holds one time per iteration; at least one.
IterationStats iteration_stats(std::span<const double> times_us);

// One case's iterations in one cycle, on every rank.
struct IterationTimes {
  std::vector<std::vector<double>> rank_us{};  // each rank's own time of each iteration, rank order
  std::vector<double> slowest_us{};            // each iteration's slowest rank, as nccl-tests' i_*
  // Leading iterations the statistics leave out (nccl-tests' -K, per_iter_skip); the lists
  // above keep them.
  std::size_t skipped = 0;
  IterationStats stats{};  // of slowest_us past the skipped ones
};

// From each rank's times (at least one rank, every rank as many iterations, more than `skip`).
IterationTimes iteration_times(std::vector<std::vector<double>> rank_us, std::size_t skip = 0);

// nccl-tests' per-iteration object, in its key order: skipped_iterations, the statistics,
// times_us (the slowest rank's, every iteration) and, when `each_rank` and more than one rank
// ran, per_process_max_times_us.
nlohmann::ordered_json iteration_times_json(const IterationTimes& t, bool each_rank);

}  // namespace perfgate::collectives
