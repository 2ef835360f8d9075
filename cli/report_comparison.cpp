#include "report_comparison.hpp"

#include <algorithm>
#include <utility>

#include "option_checks.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/identity.hpp"

namespace perfgate::cli {

void add_comparison_options(CLI::App& cmd, ComparisonOptions& opts) {
  cmd.add_option("--floor", opts.floor,
                 "Relative tolerance floor (default: the suite's, else 0.02)")
      ->check(number_in(0.0, 1.0));
  cmd.add_option("--alpha", opts.alpha, "False discovery rate across series (default 0.05)")
      ->check(number_in(1e-6, 0.5));
  cmd.add_option("--noise-k", opts.noise_k,
                 "Tolerance = max(floor, k x run-to-run noise) (default: the suite's, else 3)")
      ->check(number_in(0.0, 100.0));
  cmd.add_option("--ignore-key", opts.ignore_keys, "Fingerprint key that may differ (repeatable)");
}

regress::Comparison compare_with_store(baselines::Store* store, const std::vector<Run>& baseline,
                                       const Run& candidate, const ComparisonOptions& opts,
                                       const std::map<std::string, double>& measured_noise,
                                       std::map<std::string, regress::BlockMedians> blocks) {
  regress::CompareConfig config;
  config.blocks = std::move(blocks);
  const nlohmann::json suite = candidate.metadata.contains("compare")
                                   ? candidate.metadata["compare"]
                                   : nlohmann::json::object();
  const auto setting = [&](double given, const char* key, double fallback) {
    if (given >= 0) return given;
    return suite.contains(key) && suite[key].is_number() ? suite[key].get<double>() : fallback;
  };
  config.floor = setting(opts.floor, "floor", config.floor);
  config.noise_k = setting(opts.noise_k, "noise_k", config.noise_k);
  if (suite.contains("tolerance") && suite["tolerance"].is_array())
    for (const auto& t : suite["tolerance"])
      if (t.contains("pattern") && t.contains("floor") && t["floor"].is_number()) {
        regress::ToleranceOverride o;
        o.pattern = t["pattern"].get<std::string>();
        o.floor = t["floor"].get<double>();
        config.overrides.push_back(o);
      }
  config.alpha = opts.alpha;
  config.ignored_fingerprint_keys = opts.ignore_keys;
  config.now = utc_now_iso8601();
  std::map<std::string, double> noise;
  std::vector<Ack> acks;
  if (store) {
    std::vector<std::string> ids;
    for (const Result& r : candidate.results) ids.push_back(r.key.id());
    noise = store->run_to_run_noise(ids, candidate.fingerprint.digest(), opts.noise_runs);
    acks = store->active_acks(config.now);
  }
  for (const auto& [id, value] : measured_noise) noise[id] = std::max(noise[id], value);
  return regress::compare_runs(baseline, candidate, config, noise, acks);
}

int gate_exit_code(const regress::Comparison& comparison, int not_comparable_exit) {
  const int code = comparison.exit_code();
  return code == exit_code::not_comparable ? not_comparable_exit : code;
}

}  // namespace perfgate::cli
