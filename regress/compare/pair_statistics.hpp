#pragma once
// Per-series evidence: ratio of candidate to baseline with its interval and the test's p.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::regress::detail {

struct PairStatistics {
  double ratio = 1;                 // exp(Hodges–Lehmann shift of logs), or median ratio
  std::optional<double> low, high;  // interval at confidence 1 − alpha (when bounded)
  std::optional<double> p_value;    // absent: no test was run
  std::size_t n_baseline = 0, n_candidate = 0;
  std::string untested_reason;         // "too_few_samples", "test_cannot_reach_alpha"
  std::size_t repetitions_needed = 0;  // per side, when untested
};

// Both sides must hold positive finite values (see sample_checks.hpp).
PairStatistics pair_statistics(const std::vector<double>& baseline,
                               const std::vector<double>& candidate, double alpha);

}  // namespace perfgate::regress::detail
