#include "split_scan.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace perfgate::regress::detail {

std::vector<double> midranks(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(n);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && values[order[j + 1]] == values[order[i]]) ++j;
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = static_cast<double>(i + j + 2) / 2;
    i = j + 1;
  }
  return ranks;
}

BestSplit best_split(const std::vector<double>& ranks, std::size_t min_left,
                     std::size_t min_right) {
  BestSplit best;
  const std::size_t n = ranks.size();
  if (n < min_left + min_right) return best;
  const double nd = static_cast<double>(n);
  double left_sum = 0;
  for (std::size_t t = 1; t + min_right <= n; ++t) {
    left_sum += ranks[t - 1];
    if (t < min_left) continue;
    const double left = static_cast<double>(t), right = nd - left;
    const double u = left_sum - left * (left + 1) / 2;
    const double z = (u - left * right / 2) / std::sqrt(left * right * (nd + 1) / 12);
    if (std::fabs(z) > best.statistic) best = {t, std::fabs(z)};
  }
  return best;
}

}  // namespace perfgate::regress::detail
