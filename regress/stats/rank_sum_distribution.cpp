// Exact rank-sum distributions by dynamic programming over the (doubled) ranks: one pass per
// rank, counting the ways to reach each sum with k ranks chosen. Handles ties exactly.
#include "rank_sum_distribution.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <numeric>

namespace perfgate::regress::stats::detail {

std::vector<int> doubled_midranks(const std::vector<double>& x, const std::vector<double>& y,
                                  bool& any_ties, double& tie_term) {
  const std::size_t n = x.size() + y.size();
  std::vector<double> all(x);
  all.insert(all.end(), y.begin(), y.end());
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return all[a] < all[b]; });
  std::vector<int> ranks(n);
  any_ties = false;
  tie_term = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && all[order[j + 1]] == all[order[i]]) ++j;
    const auto run = static_cast<double>(j - i + 1);
    if (j > i) {
      any_ties = true;
      tie_term += run * run * run - run;
    }
    const auto doubled = static_cast<int>(i + j + 2);  // 2 × mean of 1-based ranks i+1..j+1
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = doubled;
    i = j + 1;
  }
  return ranks;
}

std::vector<double> rank_sum_pmf(const std::vector<int>& doubled_ranks, std::size_t choose) {
  std::vector<int> sorted(doubled_ranks);
  std::sort(sorted.rbegin(), sorted.rend());
  const int max_sum =
      std::accumulate(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(choose), 0);
  // ways[k][s]: number of k-subsets of the ranks seen so far with doubled sum s.
  std::vector<std::vector<double>> ways(
      choose + 1, std::vector<double>(static_cast<std::size_t>(max_sum) + 1, 0.0));
  ways[0][0] = 1;
  for (int r : doubled_ranks) {
    for (std::size_t k = choose; k >= 1; --k) {
      auto& to = ways[k];
      const auto& from = ways[k - 1];
      for (int s = max_sum - r; s >= 0; --s) {
        if (from[static_cast<std::size_t>(s)] != 0)
          to[static_cast<std::size_t>(s + r)] += from[static_cast<std::size_t>(s)];
      }
    }
  }
  std::vector<double> pmf = std::move(ways[choose]);
  const double total = std::accumulate(pmf.begin(), pmf.end(), 0.0);
  for (double& v : pmf) v /= total;
  return pmf;
}

const std::vector<double>& u_cdf_without_ties(std::size_t n1, std::size_t n2) {
  static std::mutex mutex;
  static std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
  const std::lock_guard lock(mutex);
  auto [it, inserted] = cache.try_emplace({n1, n2});
  if (!inserted) return it->second;
  std::vector<int> ranks(n1 + n2);
  for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<int>(2 * (i + 1));
  const std::vector<double> pmf = rank_sum_pmf(ranks, n1);
  // Doubled rank sum s ↔ U = s/2 − n1(n1+1)/2.
  const std::size_t offset = n1 * (n1 + 1);
  std::vector<double> cdf(n1 * n2 + 1, 0.0);
  double running = 0;
  for (std::size_t u = 0; u < cdf.size(); ++u) {
    const std::size_t s = 2 * u + offset;
    if (s < pmf.size()) running += pmf[s];
    cdf[u] = std::min(running, 1.0);
  }
  it->second = std::move(cdf);
  return it->second;
}

}  // namespace perfgate::regress::stats::detail
