#pragma once
// A comparison's verdict on one series, with everything needed to re-check it (DESIGN.md §3–4).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace perfgate {

enum class VerdictKind {
  regression,
  improvement,
  same,
  inconclusive,
  missing,         // in the baseline, not in the candidate
  new_series,      // in the candidate, not in the baseline
  failed,          // the candidate's result is not ok, or its samples are unusable
  not_comparable,  // fingerprints differ in comparable keys
  acknowledged,
};
std::string_view to_string(VerdictKind k);                 // "REGRESSION", "IMPROVEMENT", ...
VerdictKind verdict_kind_from_string(std::string_view s);  // throws InputError
// Worst first (0 = REGRESSION ... SAME): the one order of every verdict list and report.
int severity_rank(VerdictKind k);
// REGRESSION or IMPROVEMENT: a verdict that says the candidate is slower or faster.
constexpr bool is_alarm(VerdictKind k) {
  return k == VerdictKind::regression || k == VerdictKind::improvement;
}

struct VerdictRecord {
  std::string series_id;
  VerdictKind kind = VerdictKind::inconclusive;
  std::string reason;  // reason code, e.g. "interval_above_tolerance", "too_few_samples"
  // Estimate: candidate/baseline ratio of the metric (1.0 = unchanged), with its interval.
  std::optional<double> ratio, ratio_low, ratio_high;
  std::optional<double> p_value, p_adjusted;
  double tolerance = 0;  // relative, e.g. 0.02
  std::size_t n_baseline = 0, n_candidate = 0;
  std::size_t repetitions_needed = 0;  // for INCONCLUSIVE: per side, to make the test possible
  std::vector<std::string> baseline_runs;
  std::string candidate_run;
  nlohmann::json details = nlohmann::json::object();
};

}  // namespace perfgate
