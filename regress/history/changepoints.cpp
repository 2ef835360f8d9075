// Change points by binary segmentation: the best rank split of a segment is accepted when a
// permutation test of the *maximised* statistic says so — the null distribution includes the
// search over split positions, so the data that chose the split cannot make it look significant.
// Boundaries whose adjacent levels differ by less than min_change are merged away afterwards.
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "perfgate/core/error.hpp"
#include "perfgate/regress/changepoints.hpp"
#include "perfgate/regress/stats.hpp"
#include "split_scan.hpp"

namespace perfgate::regress {

namespace {

struct Boundary {
  std::size_t index;
  double p_value;
};

class Segmenter {
 public:
  Segmenter(const std::vector<double>& values, const DetectConfig& config)
      : values_(values), config_(config), rng_(config.seed) {}

  std::vector<Boundary> run() {
    split(0, values_.size());
    std::sort(boundaries_.begin(), boundaries_.end(),
              [](auto& a, auto& b) { return a.index < b.index; });
    return boundaries_;
  }

 private:
  void split(std::size_t begin, std::size_t end) {
    const bool newest = end == values_.size();
    const std::size_t min_left = config_.min_segment;
    const std::size_t min_right =
        newest ? std::min(config_.confirm, config_.min_segment) : config_.min_segment;
    if (end - begin < min_left + min_right) return;
    const std::vector<double> segment(values_.begin() + static_cast<std::ptrdiff_t>(begin),
                                      values_.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<double> ranks = detail::midranks(segment);
    std::optional<std::size_t> at = significant_split(ranks, begin, min_left, min_right);
    // A step among the newest points is a short tail that the scan over all splits dilutes:
    // test the tail positions on their own (the permutation search is restricted the same way).
    // Only tails shorter than min_segment: longer ones were in the full scan already.
    if (!at && newest && config_.min_segment > min_right) {
      const std::size_t longest_tail = config_.min_segment - 1;
      if (ranks.size() >= min_left + longest_tail)
        at = significant_split(ranks, begin, ranks.size() - longest_tail, min_right);
    }
    if (!at) return;
    split(begin, begin + *at);
    split(begin + *at, end);
  }

  std::optional<std::size_t> significant_split(const std::vector<double>& ranks, std::size_t begin,
                                               std::size_t min_left, std::size_t min_right) {
    const detail::BestSplit observed = detail::best_split(ranks, min_left, min_right);
    if (observed.at == 0 || observed.statistic <= 0) return std::nullopt;
    const double p = permutation_p(ranks, observed.statistic, min_left, min_right);
    if (p > config_.alpha) return std::nullopt;
    boundaries_.push_back({begin + observed.at, p});
    return observed.at;
  }

  double permutation_p(const std::vector<double>& ranks, double observed, std::size_t min_left,
                       std::size_t min_right) {
    std::vector<double> shuffled(ranks);
    const auto give_up_after =
        static_cast<std::size_t>(config_.alpha * static_cast<double>(config_.permutations + 1));
    std::size_t at_least_as_extreme = 0, done = 0;
    for (; done < config_.permutations; ++done) {
      std::shuffle(shuffled.begin(), shuffled.end(), rng_);
      if (detail::best_split(shuffled, min_left, min_right).statistic >= observed - 1e-12)
        ++at_least_as_extreme;
      if (at_least_as_extreme > give_up_after) break;  // already not significant
    }
    if (at_least_as_extreme > give_up_after) return 1.0;
    return static_cast<double>(1 + at_least_as_extreme) /
           static_cast<double>(1 + config_.permutations);
  }

  const std::vector<double>& values_;
  const DetectConfig& config_;
  std::mt19937_64 rng_;
  std::vector<Boundary> boundaries_;
};

double segment_median(const std::vector<double>& values, std::size_t begin, std::size_t end) {
  return stats::median({values.begin() + static_cast<std::ptrdiff_t>(begin),
                        values.begin() + static_cast<std::ptrdiff_t>(end)});
}

// Levels are compared next to the boundary: at most this many points on each side.
constexpr std::size_t kLevelWindow = 100;

// Relative change across `at` as the Hodges–Lehmann shift of log values: unlike a ratio of
// medians it does not flip between modes when a bimodal series' mix wobbles (Talos runs5).
double relative_change(const std::vector<double>& values, std::size_t begin, std::size_t at,
                       std::size_t end) {
  std::vector<double> before, after;
  for (std::size_t i = std::max(begin, at > kLevelWindow ? at - kLevelWindow : 0); i < at; ++i)
    before.push_back(std::log(values[i]));
  for (std::size_t i = at; i < std::min(end, at + kLevelWindow); ++i)
    after.push_back(std::log(values[i]));
  return std::expm1(stats::hodges_lehmann(before, after, 0.95).estimate);
}

// Drops, smallest first, boundaries whose neighbouring levels differ by less than min_change.
void merge_small_steps(const std::vector<double>& values, std::vector<Boundary>& boundaries,
                       double min_change) {
  while (!boundaries.empty()) {
    std::size_t weakest = 0;
    double weakest_change = INFINITY;
    for (std::size_t i = 0; i < boundaries.size(); ++i) {
      const std::size_t begin = i == 0 ? 0 : boundaries[i - 1].index;
      const std::size_t end = i + 1 == boundaries.size() ? values.size() : boundaries[i + 1].index;
      const double change = std::fabs(relative_change(values, begin, boundaries[i].index, end));
      if (change < weakest_change) {
        weakest_change = change;
        weakest = i;
      }
    }
    if (weakest_change >= min_change) return;
    boundaries.erase(boundaries.begin() + static_cast<std::ptrdiff_t>(weakest));
  }
}

// The newest few points, all off the last level in one direction, are a suspected change.
std::optional<std::size_t> suspected_tail(const std::vector<double>& values,
                                          std::size_t segment_begin, const DetectConfig& config) {
  const std::size_t n = values.size();
  if (config.confirm < 2 || n < 2) return std::nullopt;
  for (std::size_t tail = std::min(config.confirm, n) - 1; tail >= 1; --tail) {
    const std::size_t start = n - tail;
    if (start < segment_begin + config.min_segment) continue;
    const std::vector<double> before(values.begin() + static_cast<std::ptrdiff_t>(segment_begin),
                                     values.begin() + static_cast<std::ptrdiff_t>(start));
    const double level = stats::median(before);
    const double spread = 1.4826 * stats::mad(before);
    int direction = 0;
    bool all_off = true;
    for (std::size_t i = start; i < n && all_off; ++i) {
      const double change = values[i] / level - 1;
      const int sign = change > 0 ? 1 : -1;
      all_off = std::fabs(change) >= config.min_change &&
                std::fabs(values[i] - level) > 3 * spread && (direction == 0 || sign == direction);
      direction = sign;
    }
    if (all_off) return start;
  }
  return std::nullopt;
}

}  // namespace

ChangeReport detect_change_points(const std::vector<double>& values,
                                  const std::vector<std::string>& labels,
                                  const DetectConfig& config) {
  if (!labels.empty() && labels.size() != values.size())
    throw InputError(fmt::format("detect: {} labels for {} values", labels.size(), values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || values[i] <= 0)
      throw InputError(
          fmt::format("detect: value[{}] = {} is not a positive finite number", i, values[i]));
  }
  const auto label = [&](std::size_t i) { return labels.empty() ? std::to_string(i) : labels[i]; };
  std::vector<Boundary> boundaries = Segmenter(values, config).run();
  merge_small_steps(values, boundaries, config.min_change);

  ChangeReport report;
  const std::size_t last_begin = boundaries.empty() ? 0 : boundaries.back().index;
  const std::optional<std::size_t> suspected = suspected_tail(values, last_begin, config);
  std::vector<std::size_t> edges{0};
  for (const Boundary& b : boundaries) edges.push_back(b.index);
  const std::size_t data_end = suspected.value_or(values.size());
  edges.push_back(data_end);
  for (std::size_t i = 0; i < boundaries.size(); ++i) {
    ChangePoint cp;
    cp.index = boundaries[i].index;
    cp.label = label(cp.index);
    cp.before = segment_median(values, edges[i], edges[i + 1]);
    cp.after = segment_median(values, edges[i + 1], edges[i + 2]);
    cp.relative_change = relative_change(values, edges[i], edges[i + 1], edges[i + 2]);
    cp.p_value = boundaries[i].p_value;
    cp.confirmed = true;
    report.change_points.push_back(cp);
  }
  if (suspected) {
    ChangePoint cp;
    cp.index = *suspected;
    cp.label = label(cp.index);
    cp.before = segment_median(values, last_begin, *suspected);
    cp.after = segment_median(values, *suspected, values.size());
    cp.relative_change = relative_change(values, last_begin, *suspected, values.size());
    report.change_points.push_back(cp);
  }
  for (ChangePoint& cp : report.change_points)
    cp.regression = config.direction == Direction::lower_is_better ? cp.relative_change > 0
                                                                   : cp.relative_change < 0;

  for (std::size_t s = 0; s + 1 < edges.size(); ++s) {
    const std::vector<double> segment(values.begin() + static_cast<std::ptrdiff_t>(edges[s]),
                                      values.begin() + static_cast<std::ptrdiff_t>(edges[s + 1]));
    if (segment.size() < 3) continue;
    const double level = stats::median(segment);
    const double spread = 1.4826 * stats::mad(segment);
    for (std::size_t i = edges[s]; i < edges[s + 1]; ++i) {
      const double deviation = std::fabs(values[i] - level);
      if (deviation > config.outlier_z * spread && deviation >= config.min_change * level)
        report.outliers.push_back({i, label(i), values[i], level});
    }
  }
  return report;
}

}  // namespace perfgate::regress
