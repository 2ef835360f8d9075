#include "perfgate/collectives/iteration_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace perfgate::collectives {

IterationStats iteration_stats(std::span<const double> times_us) {
  if (times_us.empty()) throw std::invalid_argument("iteration_stats: no iterations");
  std::vector<double> sorted(times_us.begin(), times_us.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(n);
  double squares = 0;
  for (double t : sorted) squares += (t - mean) * (t - mean);
  const double stdev = std::sqrt(squares / double(n));
  // The nearest-rank 99th percentile: the smallest value with 99 % of the values at or below it.
  const std::size_t rank = (n * 99 + 99) / 100;
  return {sorted.front(), sorted.back(), sorted[std::min(n, rank) - 1],
          mean > 0 ? stdev / mean * 100 : 0};
}

nlohmann::json iteration_stats_json(const IterationStats& s) {
  return {{"min_us", s.min_us}, {"max_us", s.max_us}, {"p99_us", s.p99_us}, {"cv_pct", s.cv_pct}};
}

}  // namespace perfgate::collectives
