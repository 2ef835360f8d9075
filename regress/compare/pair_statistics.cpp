// Works on log values: a multiplicative slowdown is a shift there, so the Hodges–Lehmann
// shift and its Moses interval turn into a ratio and a ratio interval by exp().
#include "pair_statistics.hpp"

#include <cmath>

#include "perfgate/regress/stats.hpp"

namespace perfgate::regress::detail {

namespace {
std::vector<double> logs(const std::vector<double>& values) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double v : values) out.push_back(std::log(v));
  return out;
}
}  // namespace

PairStatistics pair_statistics(const std::vector<double>& baseline,
                               const std::vector<double>& candidate, double alpha) {
  PairStatistics s;
  s.n_baseline = baseline.size();
  s.n_candidate = candidate.size();
  s.ratio = stats::median(candidate) / stats::median(baseline);
  const std::size_t needed = stats::repetitions_needed_for(alpha);
  if (s.n_baseline < 2 || s.n_candidate < 2) {
    s.untested_reason = "too_few_samples";
    s.repetitions_needed = needed;
    return s;
  }
  const std::vector<double> log_base = logs(baseline), log_cand = logs(candidate);
  const stats::ShiftInterval shift = stats::hodges_lehmann(log_base, log_cand, 1 - alpha);
  s.ratio = std::exp(shift.estimate);
  if (stats::smallest_attainable_p(s.n_baseline, s.n_candidate) > alpha || !shift.bounded) {
    s.untested_reason = "test_cannot_reach_alpha";
    s.repetitions_needed = needed;
    return s;
  }
  s.low = std::exp(shift.low);
  s.high = std::exp(shift.high);
  s.p_value = stats::mann_whitney(log_base, log_cand).p_value;
  return s;
}

}  // namespace perfgate::regress::detail
