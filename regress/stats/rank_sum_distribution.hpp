#pragma once
// Exact permutation distribution of a Mann–Whitney rank sum (internal to regress/stats).
#include <cstddef>
#include <vector>

namespace perfgate::regress::stats::detail {

// Midranks of x followed by y, doubled so that ties (half ranks) stay integers.
std::vector<int> doubled_midranks(const std::vector<double>& x, const std::vector<double>& y,
                                  bool& any_ties, double& tie_term);

// Probability of each doubled rank sum when `choose` of `doubled_ranks` are drawn at random.
std::vector<double> rank_sum_pmf(const std::vector<int>& doubled_ranks, std::size_t choose);

// Cumulative null distribution of U (no ties) for sizes (n1, n2): cdf[u] = P(U ≤ u).
// Cached per size pair; thread-safe.
const std::vector<double>& u_cdf_without_ties(std::size_t n1, std::size_t n2);

}  // namespace perfgate::regress::stats::detail
