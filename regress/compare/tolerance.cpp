#include "tolerance.hpp"

#include <algorithm>
#include <cmath>

namespace perfgate::regress::detail {

ToleranceRules::ToleranceRules(const CompareConfig& config) : config_(config) {
  for (const ToleranceOverride& o : config.overrides)
    overrides_.emplace_back(SeriesPattern(o.pattern), o);
}

double ToleranceRules::for_series(const std::string& series_id, bool efficiency,
                                  const std::map<std::string, double>& noise) const {
  double floor = efficiency ? config_.scaling_floor : config_.floor;
  double k = config_.noise_k;
  for (const auto& [pattern, o] : overrides_) {
    if (!pattern.matches(series_id)) continue;
    floor = o.floor;
    if (o.noise_k) k = *o.noise_k;
  }
  const auto it = noise.find(series_id);
  const double measured = it != noise.end() && std::isfinite(it->second) ? it->second : 0.0;
  return std::max(floor, k * measured);
}

}  // namespace perfgate::regress::detail
