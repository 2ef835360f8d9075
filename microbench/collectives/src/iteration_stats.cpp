#include "perfgate/collectives/iteration_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace perfgate::collectives {
namespace {

// The nearest-rank percentile: the smallest value with `percent` % of the values at or below it.
double nearest_rank(const std::vector<double>& sorted, std::size_t percent) {
  const std::size_t rank = (sorted.size() * percent + 99) / 100;
  return sorted[std::min(sorted.size(), rank) - 1];
}

}  // namespace

IterationStats iteration_stats(std::span<const double> times_us) {
  if (times_us.empty()) throw std::invalid_argument("iteration_stats: no iterations");
  std::vector<double> sorted(times_us.begin(), times_us.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(n);
  double squares = 0;
  for (double t : sorted) squares += (t - mean) * (t - mean);
  const double stdev = std::sqrt(squares / double(n));
  return {sorted.front(),
          sorted.back(),
          mean,
          sorted[n / 2],
          nearest_rank(sorted, 95),
          nearest_rank(sorted, 99),
          stdev,
          mean > 0 ? stdev / mean * 100 : 0};
}

IterationTimes iteration_times(std::vector<std::vector<double>> rank_us, std::size_t skip) {
  if (rank_us.empty() || rank_us.front().empty())
    throw std::invalid_argument("iteration_times: no iterations");
  std::vector<double> slowest = rank_us.front();
  for (const std::vector<double>& rank : rank_us) {
    if (rank.size() != slowest.size())
      throw std::invalid_argument("iteration_times: ranks timed different iteration counts");
    std::transform(rank.begin(), rank.end(), slowest.begin(), slowest.begin(),
                   [](double a, double b) { return std::max(a, b); });
  }
  if (skip >= slowest.size())
    throw std::invalid_argument("iteration_times: every iteration skipped");
  const IterationStats stats = iteration_stats(std::span(slowest).subspan(skip));
  return {std::move(rank_us), std::move(slowest), skip, stats};
}

nlohmann::ordered_json iteration_times_json(const IterationTimes& t, bool each_rank) {
  const IterationStats& s = t.stats;
  nlohmann::ordered_json j = {{"skipped_iterations", t.skipped},
                              {"min_us", s.min_us},
                              {"max_us", s.max_us},
                              {"avg_us", s.avg_us},
                              {"p50_us", s.p50_us},
                              {"p95_us", s.p95_us},
                              {"p99_us", s.p99_us},
                              {"stdev_us", s.stdev_us},
                              {"cv_pct", s.cv_pct},
                              {"times_us", t.slowest_us}};
  if (each_rank && t.rank_us.size() > 1) j["per_process_max_times_us"] = t.rank_us;
  return j;
}

}  // namespace perfgate::collectives
