// One comparison = one suite of series compared at once, as `perfgate compare` sees it, so the
// false discovery rate control acts over a realistic number of series.
#include "compare_eval.hpp"

#include <string>

#include "naive_detectors.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::eval {

double DetectorScore::false_per_1000() const {
  return null_series
             ? 1000.0 * static_cast<double>(false_regressions) / static_cast<double>(null_series)
             : 0;
}

double DetectorScore::detection(std::size_t slowdown) const {
  return slowed[slowdown]
             ? static_cast<double>(detected[slowdown]) / static_cast<double>(slowed[slowdown])
             : 0;
}

namespace {

Result series(std::size_t index, std::vector<double> samples) {
  Result r;
  r.key.family = "s" + std::to_string(index);
  r.samples = std::move(samples);
  r.summary = summarize(r.samples);
  return r;
}

// One comparison; `slowdown` < 0 is A/A. Scores the first `slowed` series as changed.
void score_comparison(Generator& gen, const NoiseSpec& noise, int slowdown,
                      const CompareEvalConfig& config, CompareEvalRow& row) {
  Run base, cand;
  base.uuid = "baseline";
  cand.uuid = "candidate";
  const std::size_t slowed = slowdown < 0 ? 0 : config.slowed_per_comparison;
  for (std::size_t i = 0; i < config.series_per_comparison; ++i) {
    const double factor = i < slowed ? 1 + kSlowdowns[static_cast<std::size_t>(slowdown)] : 1.0;
    base.results.push_back(series(i, gen.samples(noise, 100, config.samples)));
    cand.results.push_back(series(i, gen.samples(noise, 100 * factor, config.samples)));
  }
  regress::CompareConfig cc;
  cc.alpha = config.alpha;
  cc.floor = config.floor;
  cc.now = "2026-01-01T00:00:00Z";
  const regress::Comparison c = regress::compare_runs({base}, cand, cc, {}, {});
  std::vector<bool> flagged(config.series_per_comparison, false);
  for (const VerdictRecord& v : c.verdicts)
    if (v.kind == VerdictKind::regression) flagged[std::stoul(v.series_id.substr(1))] = true;
  for (std::size_t i = 0; i < config.series_per_comparison; ++i) {
    const auto& b = base.results[i].samples;
    const auto& k = cand.results[i].samples;
    const bool verdicts[] = {flagged[i], naive_threshold_regression(b, k),
                             naive_u_test_regression(b, k)};
    DetectorScore* scores[] = {&row.perfgate, &row.threshold, &row.u_test};
    for (int d = 0; d < 3; ++d) {
      if (i < slowed) {
        ++scores[d]->slowed[static_cast<std::size_t>(slowdown)];
        scores[d]->detected[static_cast<std::size_t>(slowdown)] += verdicts[d];
      } else if (slowdown < 0) {
        ++scores[d]->null_series;
        scores[d]->false_regressions += verdicts[d];
      }
    }
  }
}

}  // namespace

std::vector<CompareEvalRow> run_compare_eval(const CompareEvalConfig& config,
                                             const std::vector<NoiseSpec>& noises) {
  std::vector<CompareEvalRow> rows;
  Generator gen(config.seed);
  for (const NoiseSpec& noise : noises) {
    CompareEvalRow row;
    row.noise = noise;
    for (int slowdown = -1; slowdown < static_cast<int>(kSlowdowns.size()); ++slowdown)
      for (std::size_t n = 0; n < config.comparisons; ++n)
        score_comparison(gen, noise, slowdown, config, row);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace perfgate::eval
