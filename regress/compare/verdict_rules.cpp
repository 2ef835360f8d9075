#include "verdict_rules.hpp"

#include <algorithm>
#include <cmath>

#include "perfgate/regress/stats.hpp"

namespace perfgate::regress::detail {

double worse_ratio(double ratio, Direction direction) {
  return direction == Direction::lower_is_better ? ratio : 1 / ratio;
}

namespace {

// How many repetitions per side would shrink the interval enough to clear the nearest edge.
std::size_t repetitions_to_decide(const PairStatistics& s, double tolerance) {
  const double half_width = (std::log(*s.high) - std::log(*s.low)) / 2;
  const double estimate = std::log(s.ratio);
  const double distance = std::min(std::fabs(estimate - std::log1p(tolerance)),
                                   std::fabs(estimate - std::log1p(-std::min(tolerance, 0.99))));
  const double n = static_cast<double>(std::max(s.n_baseline, s.n_candidate));
  if (distance <= 0 || half_width <= 0) return 0;
  const double needed = std::ceil(n * (half_width / distance) * (half_width / distance));
  return static_cast<std::size_t>(std::min(needed, 10000.0));
}

Decision point_decision(const PairStatistics& s, double tolerance, Direction direction) {
  const double worse = worse_ratio(s.ratio, direction);
  if (direction == Direction::higher_is_better ? s.ratio < 1 - tolerance : worse > 1 + tolerance)
    return {VerdictKind::regression, "scaling_efficiency_drop", 0};
  if (direction == Direction::higher_is_better ? s.ratio > 1 + tolerance : worse < 1 - tolerance)
    return {VerdictKind::improvement, "scaling_efficiency_gain", 0};
  return {VerdictKind::same, "efficiency_within_tolerance", 0};
}

}  // namespace

Decision decide(const PairStatistics& s, std::optional<double> p_adjusted, double tolerance,
                Direction direction, double alpha, bool point_only) {
  if (point_only && (!s.untested_reason.empty() || !p_adjusted))
    return point_decision(s, tolerance, direction);
  if (!s.untested_reason.empty() || !s.low || !s.high || !p_adjusted)
    return {VerdictKind::inconclusive, s.untested_reason.empty() ? "untested" : s.untested_reason,
            s.repetitions_needed};
  const bool lower_better = direction == Direction::lower_is_better;
  const double up = 1 + tolerance, down = 1 - tolerance;
  const bool above = *s.low > up, below = *s.high < down;
  const bool worse_beyond = lower_better ? above : below;
  const bool better_beyond = lower_better ? below : above;
  const bool significant = *p_adjusted < alpha;
  if (worse_beyond && significant)
    return {VerdictKind::regression,
            point_only ? "scaling_efficiency_drop" : "interval_beyond_tolerance", 0};
  if (better_beyond && significant)
    return {VerdictKind::improvement, "interval_beyond_tolerance", 0};
  if (*s.low >= down && *s.high <= up) return {VerdictKind::same, "interval_within_tolerance", 0};
  if (worse_beyond || better_beyond)
    return {VerdictKind::inconclusive, "not_significant_after_fdr", 0};
  return {VerdictKind::inconclusive, "interval_straddles_tolerance",
          repetitions_to_decide(s, tolerance)};
}

void apply_block_test(VerdictRecord& v, const BlockMedians& blocks, Direction direction,
                      double alpha) {
  const std::size_t nb = blocks.baseline.size(), nc = blocks.candidate.size();
  if (nb == 0 || nc == 0) return;
  nlohmann::json record = {{"baseline_blocks", nb}, {"candidate_blocks", nc}};
  if (stats::smallest_attainable_p(nb, nc) >= alpha) {
    record["skipped"] = "too few blocks for the test to reach alpha";
    v.details["block_test"] = record;
    return;
  }
  const stats::MannWhitney test = stats::mann_whitney(blocks.baseline, blocks.candidate);
  record["p_value"] = test.p_value;
  v.details["block_test"] = record;
  // U counts baseline blocks above candidate blocks: below half the pairs, the candidate's
  // blocks are the higher ones.
  const bool candidate_higher = test.u < static_cast<double>(nb * nc) / 2;
  const bool blocks_worse = candidate_higher == (direction == Direction::lower_is_better);
  const bool alarm = is_alarm(v.kind);
  const bool same_way = blocks_worse == (v.kind == VerdictKind::regression);
  if (alarm && !(test.p_value < alpha && same_way)) {
    v.kind = VerdictKind::inconclusive;
    v.reason = "blocks_do_not_differ";
  }
}

}  // namespace perfgate::regress::detail
