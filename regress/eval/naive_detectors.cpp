#include "naive_detectors.hpp"

#include <cmath>

#include "perfgate/regress/stats.hpp"

namespace perfgate::eval {

using regress::stats::median;

bool naive_threshold_regression(const std::vector<double>& baseline,
                                const std::vector<double>& candidate) {
  return median(candidate) > 1.05 * median(baseline);
}

bool naive_u_test_regression(const std::vector<double>& baseline,
                             const std::vector<double>& candidate) {
  return median(candidate) > median(baseline) &&
         regress::stats::mann_whitney(baseline, candidate).p_value < 0.05;
}

std::vector<std::size_t> naive_jump_changes(const std::vector<double>& values) {
  std::vector<std::size_t> out;
  for (std::size_t i = 1; i < values.size(); ++i)
    if (std::fabs(values[i] / values[i - 1] - 1) > 0.05) out.push_back(i);
  return out;
}

}  // namespace perfgate::eval
