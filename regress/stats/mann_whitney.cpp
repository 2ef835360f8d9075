// Mann–Whitney U: exact for small samples (conditional on ties), normal approximation with
// tie and continuity correction otherwise — the same asymptotic formula scipy uses.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/binomial.hpp>

#include "perfgate/regress/stats.hpp"
#include "rank_sum_distribution.hpp"

namespace perfgate::regress::stats {

namespace {

double two_sided_from_tails(double lower_tail, double upper_tail) {
  return std::min(1.0, 2 * std::min(lower_tail, upper_tail));
}

double exact_p(const std::vector<int>& ranks, std::size_t n1, int observed_doubled_sum) {
  // Draw the first sample's ranks: its doubled rank sum is the statistic.
  const std::vector<double> pmf = detail::rank_sum_pmf(ranks, n1);
  double lower = 0, upper = 0;
  for (std::size_t s = 0; s < pmf.size(); ++s) {
    if (static_cast<int>(s) <= observed_doubled_sum) lower += pmf[s];
    if (static_cast<int>(s) >= observed_doubled_sum) upper += pmf[s];
  }
  return two_sided_from_tails(lower, upper);
}

}  // namespace

double normal_quantile(double probability) {
  return boost::math::quantile(boost::math::normal_distribution<double>{}, probability);
}

MannWhitney mann_whitney(const std::vector<double>& x, const std::vector<double>& y,
                         Method method) {
  if (x.empty() || y.empty()) throw std::invalid_argument("mann_whitney: empty sample");
  const std::size_t n1 = x.size(), n2 = y.size(), n = n1 + n2;
  MannWhitney result;
  double tie_term = 0;
  const std::vector<int> ranks = detail::doubled_midranks(x, y, result.ties, tie_term);
  const int doubled_sum =
      std::accumulate(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(n1), 0);
  const double n1d = static_cast<double>(n1), n2d = static_cast<double>(n2),
               nd = static_cast<double>(n);
  result.u = doubled_sum / 2.0 - n1d * (n1d + 1) / 2;
  if (method == Method::exact || (method == Method::automatic && n <= kExactLimit)) {
    result.exact = true;
    if (result.ties) {
      result.p_value = exact_p(ranks, n1, doubled_sum);
    } else {
      const auto& cdf = detail::u_cdf_without_ties(n1, n2);
      const auto u = static_cast<std::size_t>(std::llround(result.u));
      const double lower = cdf[u];
      const double upper = 1 - (u == 0 ? 0.0 : cdf[u - 1]);
      result.p_value = two_sided_from_tails(lower, upper);
    }
    return result;
  }
  const double mean = n1d * n2d / 2;
  const double variance = n1d * n2d / 12 * ((nd + 1) - tie_term / (nd * (nd - 1)));
  if (variance <= 0) return result;  // every value tied: no evidence of a difference
  const double z = (std::fabs(result.u - mean) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(
                                         boost::math::normal_distribution<double>{}, z)));
  return result;
}

double smallest_attainable_p(std::size_t n1, std::size_t n2) {
  if (n1 == 0 || n2 == 0) return 1.0;
  const double arrangements = boost::math::binomial_coefficient<double>(
      static_cast<unsigned>(n1 + n2), static_cast<unsigned>(n1));
  return std::min(1.0, 2 / arrangements);
}

std::size_t repetitions_needed_for(double alpha) {
  std::size_t n = 2;
  while (smallest_attainable_p(n, n) > alpha && n < 1000) ++n;
  return n;
}

}  // namespace perfgate::regress::stats
