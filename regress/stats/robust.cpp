// Robust location and spread: the medians and MADs every verdict and change point is built on.
#include <algorithm>
#include <cmath>
#include <limits>

#include "perfgate/regress/stats.hpp"

namespace perfgate::regress::stats {

double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  const double upper = *mid;
  const double lower = *std::max_element(values.begin(), mid);
  return lower + (upper - lower) / 2;
}

double mad(const std::vector<double>& values) {
  const double center = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - center));
  return median(std::move(deviations));
}

double iqr(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const auto quantile = [&](double q) {
    const double pos = q * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(pos));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (pos - static_cast<double>(below)) * (values[above] - values[below]);
  };
  return quantile(0.75) - quantile(0.25);
}

}  // namespace perfgate::regress::stats
