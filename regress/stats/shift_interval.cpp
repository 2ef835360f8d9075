// Hodges–Lehmann shift with the Moses distribution-free interval: the k-th smallest and k-th
// largest of the n1·n2 pairwise differences, k from the Mann–Whitney null distribution.
#include <algorithm>
#include <cmath>

#include "perfgate/regress/stats.hpp"
#include "rank_sum_distribution.hpp"

namespace perfgate::regress::stats {

namespace {

// Number of differences to cut from each end (0: the level is not reachable with these sizes).
std::size_t critical_count(std::size_t n1, std::size_t n2, double confidence) {
  const double tail = (1 - confidence) / 2;
  const std::size_t pairs = n1 * n2;
  if (n1 + n2 <= kExactLimit) {
    const auto& cdf = detail::u_cdf_without_ties(n1, n2);
    std::size_t k = 0;  // largest k with P(U ≤ k − 1) ≤ tail
    while (k < pairs && cdf[k] <= tail) ++k;
    return k;
  }
  const double spread =
      std::sqrt(static_cast<double>(pairs) * static_cast<double>(n1 + n2 + 1) / 12);
  const double k = std::floor(static_cast<double>(pairs) / 2 - normal_quantile(1 - tail) * spread);
  return k < 1 ? 0 : static_cast<std::size_t>(k);
}

double kth_smallest(std::vector<double>& values, std::size_t k) {  // k is 0-based
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace

ShiftInterval hodges_lehmann(const std::vector<double>& x, const std::vector<double>& y,
                             double confidence) {
  std::vector<double> differences;
  differences.reserve(x.size() * y.size());
  for (double a : x)
    for (double b : y) differences.push_back(b - a);
  ShiftInterval result;
  if (differences.empty()) return result;
  const std::size_t m = differences.size();
  result.estimate = median(differences);
  const std::size_t k = critical_count(x.size(), y.size(), confidence);
  result.bounded = k >= 1;
  const std::size_t cut = result.bounded ? k - 1 : 0;
  result.low = kth_smallest(differences, cut);
  result.high = kth_smallest(differences, m - 1 - cut);
  return result;
}

}  // namespace perfgate::regress::stats
