#pragma once
// Robust, distribution-free statistics behind every verdict (DESIGN.md §4; docs/statistics.md).
// Pure functions over samples: no I/O, no model types.
#include <cstddef>
#include <vector>

namespace perfgate::regress::stats {

// Median of `values` (mean of the two middle values for an even count). Empty → NaN.
double median(std::vector<double> values);
// Median absolute deviation from the median, unscaled (multiply by 1.4826 for a normal σ).
double mad(const std::vector<double>& values);
// Interquartile range, quartiles by linear interpolation (R type 7). Empty → NaN.
double iqr(std::vector<double> values);

struct MannWhitney {
  double u = 0;        // U of the first sample: #{(x, y): x > y} + ½ #{x = y}
  double p_value = 1;  // two-sided
  bool exact = false;  // exact permutation distribution (with ties: conditional on them)
  bool ties = false;
};

// Two-sided Mann–Whitney U test. Exact null distribution when n1 + n2 ≤ kExactLimit (ties
// handled exactly, conditional on the observed tie pattern); otherwise the normal
// approximation with tie correction and continuity correction (as scipy's "asymptotic").
// Needs at least one sample per side.
// `method` forces one or the other (checks against other tools' outputs).
inline constexpr std::size_t kExactLimit = 40;
enum class Method { automatic, exact, asymptotic };
MannWhitney mann_whitney(const std::vector<double>& x, const std::vector<double>& y,
                         Method method = Method::automatic);

// Smallest two-sided p the test can produce for these sizes without ties: 2 / C(n1+n2, n1).
double smallest_attainable_p(std::size_t n1, std::size_t n2);
// Smallest equal per-side count whose smallest attainable p is ≤ alpha.
std::size_t repetitions_needed_for(double alpha);

// Hodges–Lehmann estimate of the shift y − x with the distribution-free (Moses) confidence
// interval: order statistics of the n1·n2 pairwise differences, cut at the Mann–Whitney
// critical value. `bounded` is false when the samples are too few for the requested level:
// the interval is then the full range of the differences and must not be trusted.
struct ShiftInterval {
  double estimate = 0, low = 0, high = 0;
  bool bounded = false;
};
ShiftInterval hodges_lehmann(const std::vector<double>& x, const std::vector<double>& y,
                             double confidence);

// Benjamini–Hochberg adjusted p-values (same order as `p`). Controls the false discovery rate
// of the set {i : adjusted[i] ≤ q} at q for independent or positively dependent tests.
std::vector<double> benjamini_hochberg(const std::vector<double>& p);

// Standard normal quantile (Boost.Math), for callers that size intervals.
double normal_quantile(double probability);

}  // namespace perfgate::regress::stats
