#include "sample_checks.hpp"

#include <cmath>

namespace perfgate::regress::detail {

std::vector<double> usable_samples(const Result& result) {
  if (!result.samples.empty()) return result.samples;
  if (result.summary.n > 0) return {result.summary.median};
  return {};
}

std::string unusable_reason(const Result& result) {
  if (result.status != ResultStatus::ok) return "status_" + std::string(to_string(result.status));
  const std::vector<double> values = usable_samples(result);
  if (values.empty()) return "no_samples";
  for (double v : values) {
    if (!std::isfinite(v)) return "non_finite_samples";
  }
  // Ratios live on a log scale: a zero or negative time/throughput is a broken measurement.
  for (double v : values) {
    if (v <= 0) return "non_positive_samples";
  }
  return {};
}

}  // namespace perfgate::regress::detail
