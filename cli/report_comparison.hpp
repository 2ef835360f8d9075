#pragma once
// The comparison `gate` and `report` both make: compare_runs with the store's run-to-run noise
// and active acks when a store is at hand.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "perfgate/baselines/store.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::cli {

// floor and noise_k below 0 mean "not given": the suite's [compare] settings recorded in the
// candidate run's metadata apply, else the comparator's defaults.
struct ComparisonOptions {
  double floor = -1, alpha = 0.05, noise_k = -1;
  std::vector<std::string> ignore_keys;
  std::size_t noise_runs = 20;  // runs of history behind each noise estimate
};
void add_comparison_options(CLI::App& cmd, ComparisonOptions& opts);

// `store` may be null (no history: the tolerance is the floor, no acks). `measured_noise`
// (series id → relative noise seen in this comparison's own runs) raises the store's estimate.
// `blocks` (an A/B gate's block medians) adds the block test to alarms.
regress::Comparison compare_with_store(baselines::Store* store, const std::vector<Run>& baseline,
                                       const Run& candidate, const ComparisonOptions& opts,
                                       const std::map<std::string, double>& measured_noise = {},
                                       std::map<std::string, regress::BlockMedians> blocks = {});

// 0 pass, 1 regression, 3 not comparable / insufficient data (replaced by `not_comparable_exit`).
int gate_exit_code(const regress::Comparison& comparison, int not_comparable_exit);

}  // namespace perfgate::cli
