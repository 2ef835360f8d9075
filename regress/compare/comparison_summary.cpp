#include "comparison_summary.hpp"

#include <algorithm>
#include <cmath>

#include "perfgate/regress/stats.hpp"
#include "verdict_rules.hpp"

namespace perfgate::regress::detail {

namespace {

Direction direction_of(const VerdictRecord& v) {
  return v.details.value("direction", "") == to_string(Direction::higher_is_better)
             ? Direction::higher_is_better
             : Direction::lower_is_better;
}

// Within one verdict kind, the biggest change for the worse comes first.
double worse_first_key(const VerdictRecord& v) {
  return worse_ratio(v.ratio.value_or(1), direction_of(v));
}

// Only tested series carry a ratio: missing, new, failed and not comparable ones have none.
GeomeanRatio geometric_mean(const std::vector<VerdictRecord>& verdicts, double alpha) {
  GeomeanRatio g;
  double sum = 0, variance = 0;
  const double z = stats::normal_quantile(1 - alpha / 2);
  for (const VerdictRecord& v : verdicts) {
    if (!v.ratio) continue;
    sum += std::log(worse_ratio(*v.ratio, direction_of(v)));
    if (v.ratio_low && v.ratio_high) {
      const double se = (std::log(*v.ratio_high) - std::log(*v.ratio_low)) / (2 * z);
      variance += se * se;
    }
    ++g.series;
  }
  if (g.series == 0) return g;
  const double n = static_cast<double>(g.series);
  const double mean = sum / n, half = z * std::sqrt(variance) / n;
  g.ratio = std::exp(mean);
  g.low = std::exp(mean - half);
  g.high = std::exp(mean + half);
  return g;
}

}  // namespace

void summarise(Comparison& c, double alpha) {
  c.geomean = geometric_mean(c.verdicts, alpha);
  std::stable_sort(c.verdicts.begin(), c.verdicts.end(),
                   [](const VerdictRecord& a, const VerdictRecord& b) {
                     if (severity_rank(a.kind) != severity_rank(b.kind))
                       return severity_rank(a.kind) < severity_rank(b.kind);
                     return worse_first_key(a) > worse_first_key(b);
                   });
  c.counts.clear();
  for (const VerdictRecord& v : c.verdicts) ++c.counts[v.kind];
}

}  // namespace perfgate::regress::detail
