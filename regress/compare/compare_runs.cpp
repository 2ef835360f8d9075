// Pairwise comparison of a candidate run against its baseline (DESIGN.md §4): match series,
// test each, adjust across the whole comparison (Benjamini–Hochberg), decide, summarise.
#include <algorithm>
#include <cmath>
#include <set>

#include "acks.hpp"
#include "comparison_summary.hpp"
#include "pair_statistics.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/identity.hpp"
#include "perfgate/regress/compare.hpp"
#include "perfgate/regress/stats.hpp"
#include "sample_checks.hpp"
#include "series_match.hpp"
#include "tolerance.hpp"
#include "verdict_rules.hpp"

namespace perfgate::regress {

bool Comparison::has_regression() const {
  const auto it = counts.find(VerdictKind::regression);
  return it != counts.end() && it->second > 0;
}

int Comparison::exit_code() const {
  if (has_regression()) return exit_code::regression;
  const auto count = [&](VerdictKind k) {
    const auto it = counts.find(k);
    return it == counts.end() ? std::size_t{0} : it->second;
  };
  // A failed candidate benchmark is missing data, never a silent pass.
  if (!differing_keys.empty() || count(VerdictKind::not_comparable) > 0 ||
      count(VerdictKind::failed) > 0)
    return exit_code::not_comparable;
  return exit_code::pass;
}

namespace {

using detail::MatchedSeries;
using detail::PairStatistics;

// A series still to be decided once every p-value of the comparison is known.
struct Pending {
  std::size_t verdict_index;
  PairStatistics stats;
  Direction direction;
  bool efficiency;
};

std::vector<std::string> differing_fingerprint_keys(const std::vector<Run>& baseline,
                                                    const Run& candidate,
                                                    const std::vector<std::string>& ignored) {
  std::set<std::string> keys;
  for (const Run& b : baseline)
    for (auto& k : differing_keys(b.fingerprint, candidate.fingerprint, ignored)) keys.insert(k);
  return {keys.begin(), keys.end()};
}

VerdictRecord start_record(const MatchedSeries& m, const std::vector<std::string>& baseline_runs,
                           const std::string& candidate_run) {
  VerdictRecord v;
  v.series_id = m.id;
  v.baseline_runs = baseline_runs;
  v.candidate_run = candidate_run;
  const Result& r = m.any();
  v.details["unit"] = r.unit;
  v.details["direction"] = std::string(to_string(r.direction));
  if (m.scale)
    v.details["scale"] = {{"nodes", m.scale->nodes},
                          {"gpus_per_node", m.scale->gpus_per_node},
                          {"ranks", m.scale->ranks}};
  return v;
}

// Everything decidable without the other series' p-values; returns true when a test is pending.
bool classify(const MatchedSeries& m, const std::vector<std::string>& differing, double alpha,
              VerdictRecord& v, PairStatistics& stats) {
  if (!m.candidate) {
    v.kind = VerdictKind::missing;
    v.reason = "absent_in_candidate";
    return false;
  }
  if (m.baseline.empty()) {
    v.kind = VerdictKind::new_series;
    v.reason = "absent_in_baseline";
    return false;
  }
  if (const std::string why = detail::unusable_reason(*m.candidate); !why.empty()) {
    v.kind = VerdictKind::failed;
    v.reason = "candidate_" + why;
    if (!m.candidate->message.empty()) v.details["message"] = m.candidate->message;
    return false;
  }
  if (!differing.empty()) {
    v.kind = VerdictKind::not_comparable;
    v.reason = "fingerprint_differs";
    v.details["differing_keys"] = differing;
    return false;
  }
  std::vector<double> pooled;
  std::string baseline_problem;
  for (const Result* b : m.baseline) {
    if (const std::string why = detail::unusable_reason(*b); !why.empty()) {
      baseline_problem = why;
      continue;
    }
    const std::vector<double> s = detail::usable_samples(*b);
    pooled.insert(pooled.end(), s.begin(), s.end());
  }
  if (pooled.empty()) {
    v.kind = VerdictKind::inconclusive;
    v.reason = "baseline_" + baseline_problem;
    return false;
  }
  stats = detail::pair_statistics(pooled, detail::usable_samples(*m.candidate), alpha);
  return true;
}

}  // namespace

Comparison compare_runs(const std::vector<Run>& baseline, const Run& candidate,
                        const CompareConfig& config, const std::map<std::string, double>& noise,
                        const std::vector<Ack>& acks) {
  Comparison out;
  for (const Run& b : baseline) out.baseline_runs.push_back(b.uuid);
  out.candidate_run = candidate.uuid;
  out.differing_keys =
      differing_fingerprint_keys(baseline, candidate, config.ignored_fingerprint_keys);
  const detail::ToleranceRules tolerances(config);
  const detail::AckRules ack_rules(acks, config.now.empty() ? utc_now_iso8601() : config.now);

  std::vector<Pending> pending;
  for (const MatchedSeries& m : detail::match_series(baseline, candidate)) {
    VerdictRecord v = start_record(m, out.baseline_runs, out.candidate_run);
    const bool efficiency = m.any().key.metric == kEfficiencyMetric;
    v.tolerance = tolerances.for_series(m.id, efficiency, noise);
    PairStatistics stats;
    if (classify(m, out.differing_keys, config.alpha, v, stats)) {
      v.n_baseline = stats.n_baseline;
      v.n_candidate = stats.n_candidate;
      v.ratio = stats.ratio;
      v.ratio_low = stats.low;
      v.ratio_high = stats.high;
      v.p_value = stats.p_value;
      pending.push_back(
          {out.verdicts.size(), std::move(stats), m.candidate->direction, efficiency});
    }
    out.verdicts.push_back(std::move(v));
  }

  std::vector<double> p_values;
  std::vector<std::size_t> tested;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (pending[i].stats.p_value) {
      p_values.push_back(*pending[i].stats.p_value);
      tested.push_back(i);
    }
  }
  const std::vector<double> adjusted = stats::benjamini_hochberg(p_values);
  for (std::size_t j = 0; j < tested.size(); ++j)
    out.verdicts[pending[tested[j]].verdict_index].p_adjusted = adjusted[j];

  for (const Pending& p : pending) {
    VerdictRecord& v = out.verdicts[p.verdict_index];
    const detail::Decision d =
        detail::decide(p.stats, v.p_adjusted, v.tolerance, p.direction, config.alpha, p.efficiency);
    v.kind = d.kind;
    v.reason = d.reason;
    v.repetitions_needed = d.repetitions_needed;
    if (const auto it = config.blocks.find(v.series_id); it != config.blocks.end())
      detail::apply_block_test(v, it->second, p.direction, config.alpha);
    ack_rules.apply(v, p.direction);
  }
  detail::summarise(out, config.alpha);
  return out;
}

}  // namespace perfgate::regress
