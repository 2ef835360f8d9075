#pragma once
// A pooled baseline cut at each series' last change point (DESIGN.md §3: "pooled samples of the
// last K nightlies since the last change point"). The store picks the K nightlies; this layer,
// which has both the store and the change-point detector, decides per series which of them
// still measure the current level.
#include <map>
#include <string>
#include <vector>

#include "perfgate/baselines/store.hpp"
#include "perfgate/core/model.hpp"
#include "perfgate/regress/compare.hpp"

namespace perfgate::cli {

// The runs one series pools, and the change point that cut the pool when there was one.
struct SeriesPool {
  std::vector<std::string> runs;  // newest first
  std::size_t history_runs = 0;   // per-run medians the detection looked at
  bool cut = false;
  std::string change_point_run, change_point_commit;
  double relative_change = 0;
};
using BaselinePools = std::map<std::string, SeriesPool>;  // by series id

// Per series of `baseline` (the policy's K runs): change points over the per-run medians of up
// to 4K eligible nightlies (the candidate left out) with the newest baseline run's fingerprint;
// the pool keeps the runs from the last confirmed change point on, at least one.
BaselinePools pool_since_change_point(baselines::Store& store,
                                      const baselines::BaselinePolicy& policy,
                                      const std::vector<Run>& baseline,
                                      const std::string& candidate_uuid);

// Removes each series' results from the baseline runs outside its pool.
void apply_pools(std::vector<Run>& baseline, const BaselinePools& pools);

// The pool of each series into its verdict's evidence: details["baseline_pool"].
void record_pools(regress::Comparison& comparison, const BaselinePools& pools);

}  // namespace perfgate::cli
