#include "perfgate/microbench/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace perfgate::microbench {

double median_interval_rel_width(std::vector<double>& samples) {
  const std::size_t n = samples.size();
  if (n < 6) return std::numeric_limits<double>::infinity();
  // Normal approximation to binomial(n, 1/2): ranks n/2 ∓ 1.96·√n/2 (1-based).
  const double half = 1.96 * std::sqrt(static_cast<double>(n)) / 2.0;
  const double mid = static_cast<double>(n) / 2.0;
  const auto lo = static_cast<std::size_t>(std::max(1.0, std::floor(mid - half))) - 1;
  const auto hi =
      static_cast<std::size_t>(std::min(static_cast<double>(n), std::ceil(mid + half + 1))) - 1;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(n / 2),
                   samples.end());
  const double median = samples[n / 2];
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(lo),
                   samples.begin() + static_cast<std::ptrdiff_t>(n / 2));
  const double low = samples[lo];
  std::nth_element(samples.begin() + static_cast<std::ptrdiff_t>(n / 2),
                   samples.begin() + static_cast<std::ptrdiff_t>(hi), samples.end());
  const double high = samples[hi];
  if (!(median > 0)) return std::numeric_limits<double>::infinity();
  return (high - low) / median;
}

std::string to_string(StopReason r) {
  switch (r) {
    case StopReason::converged:
      return "converged";
    case StopReason::time_cap:
      return "time_cap";
    case StopReason::max_samples:
      return "max_samples";
    case StopReason::running:
      break;
  }
  return "running";
}

StopReason StopRule::after_sample(const std::vector<double>& samples, double elapsed_s) {
  const std::size_t n = samples.size();
  if (n >= policy_.max_samples) return StopReason::max_samples;
  // The minimum sample count wins over the time cap: fewer samples cannot support a verdict
  // (a runaway case is stopped by the case time limit instead).
  if (n < policy_.min_samples) return StopReason::running;
  if (elapsed_s >= policy_.max_time_s) return StopReason::time_cap;
  if (elapsed_s < policy_.min_time_s || n < next_check_) return StopReason::running;
  next_check_ = n + std::max<std::size_t>(1, n / 16);
  scratch_.assign(samples.begin(), samples.end());
  last_width_ = median_interval_rel_width(scratch_);
  return last_width_ <= policy_.target_rel_ci ? StopReason::converged : StopReason::running;
}

}  // namespace perfgate::microbench
