#pragma once
// Pairwise comparison of a candidate run against a baseline (DESIGN.md §4).
// CONTRACT shared by `compare`, `gate`, `report` and the nightly flow.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/core/verdict.hpp"

namespace perfgate::regress {

struct ToleranceOverride {
  std::string pattern;            // series pattern (core/series_pattern.hpp)
  double floor = 0.0;             // relative, e.g. 0.05
  std::optional<double> noise_k;  // unset: CompareConfig::noise_k
};

// One series' medians per process ("block") of a gate, for each build.
struct BlockMedians {
  std::vector<double> baseline, candidate;
};

struct CompareConfig {
  double alpha = 0.05;          // false discovery rate across the comparison
  double floor = 0.02;          // relative tolerance floor
  double noise_k = 3.0;         // tolerance = max(floor, noise_k × run-to-run noise)
  double scaling_floor = 0.05;  // tolerance for scaling-efficiency series (metric "efficiency")
  std::vector<ToleranceOverride> overrides;
  std::vector<std::string> ignored_fingerprint_keys;
  std::string now;  // ISO-8601; acks expire relative to it
  // A/B gates: series id → its block medians. A REGRESSION or IMPROVEMENT must also show
  // between the blocks (docs/statistics.md, "The block test").
  std::map<std::string, BlockMedians> blocks;
  // Confidence of each series' interval is 1 − alpha (docs/statistics.md says why).
};

// Metric whose series are scaling efficiencies (judged with scaling_floor).
inline constexpr const char* kEfficiencyMetric = "efficiency";

struct GeomeanRatio {
  double ratio = 1.0, low = 1.0, high = 1.0;  // candidate/baseline, "worse" > 1 for times
  std::size_t series = 0;
};

struct Comparison {
  std::vector<std::string> baseline_runs;
  std::string candidate_run;
  std::vector<std::string> differing_keys;  // non-empty: every series NOT_COMPARABLE
  std::vector<VerdictRecord> verdicts;      // one per series, worst first
  std::map<VerdictKind, std::size_t> counts;
  GeomeanRatio geomean;

  bool has_regression() const;
  int exit_code() const;  // core/exit_codes.hpp: 1 regression, 3 not comparable, else 0
};

// `baseline` holds one run, or several whose samples are pooled per series.
// `noise` maps series id → relative run-to-run noise (from the store's history).
Comparison compare_runs(const std::vector<Run>& baseline, const Run& candidate,
                        const CompareConfig& config, const std::map<std::string, double>& noise,
                        const std::vector<Ack>& acks);

}  // namespace perfgate::regress
