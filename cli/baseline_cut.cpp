#include "baseline_cut.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "perfgate/regress/changepoints.hpp"

namespace perfgate::cli {

namespace {

// How much longer than K the history behind the detection is: enough points on both sides of
// a change inside the pool for the detector's minimum segment length.
constexpr std::size_t kHistoryFactor = 4;

struct SeriesHistory {
  std::vector<double> medians;
  std::vector<std::string> runs, commits;
};

SeriesHistory usable_history(baselines::Store& store, const std::string& series_id,
                             const baselines::HistoryFilter& filter,
                             const std::set<std::string>& window) {
  SeriesHistory h;
  for (const auto& p : store.history(series_id, filter)) {
    if (!window.count(p.run_uuid) || p.status != ResultStatus::ok) continue;
    if (!std::isfinite(p.summary.median) || p.summary.median <= 0) continue;
    h.medians.push_back(p.summary.median);
    h.runs.push_back(p.run_uuid);
    h.commits.push_back(p.commit);
  }
  return h;
}

// The newest confirmed change point, if any.
std::optional<regress::ChangePoint> last_confirmed(const regress::ChangeReport& report) {
  std::optional<regress::ChangePoint> last;
  for (const auto& cp : report.change_points)
    if (cp.confirmed) last = cp;
  return last;
}

}  // namespace

BaselinePools pool_since_change_point(baselines::Store& store,
                                      const baselines::BaselinePolicy& policy,
                                      const std::vector<Run>& baseline,
                                      const std::string& candidate_uuid) {
  BaselinePools pools;
  if (baseline.empty()) return pools;
  const std::string digest = baseline.front().fingerprint.digest();
  const std::vector<std::string> window_runs = store.eligible_nightlies(
      policy.name, digest, kHistoryFactor * std::max<std::size_t>(policy.k, 1));
  std::set<std::string> window(window_runs.begin(), window_runs.end());
  window.erase(candidate_uuid);
  std::map<std::string, std::size_t> age;  // 0 = newest
  for (std::size_t i = 0; i < window_runs.size(); ++i) age[window_runs[i]] = i;

  baselines::HistoryFilter filter;
  filter.fingerprint_digest = digest;
  filter.branch = policy.branch;
  filter.suite = policy.suite;
  filter.complete_runs_only = true;  // the window's own runs are picked in usable_history
  // Read each series' history no further back than the window's oldest run (newest first).
  if (!window_runs.empty()) filter.since = store.load_run(window_runs.back()).started_at;

  for (const Run& run : baseline)
    for (const Result& r : run.results) {
      SeriesPool& pool = pools[r.key.id()];
      pool.runs.push_back(run.uuid);
      if (pool.runs.size() > 1) continue;  // detection once per series, on its first sight

      const SeriesHistory h = usable_history(store, r.key.id(), filter, window);
      pool.history_runs = h.medians.size();
      if (h.medians.empty()) continue;
      regress::DetectConfig config;
      config.direction = r.direction;
      const auto cp = last_confirmed(regress::detect_change_points(h.medians, h.commits, config));
      if (!cp) continue;
      pool.change_point_run = h.runs[cp->index];
      pool.change_point_commit = h.commits[cp->index];
      pool.relative_change = cp->relative_change;
    }

  for (auto& [id, pool] : pools) {
    if (pool.change_point_run.empty()) continue;
    const std::size_t cut_age = age.at(pool.change_point_run);
    std::vector<std::string> kept;
    for (const std::string& uuid : pool.runs)
      if (age.count(uuid) && age.at(uuid) <= cut_age) kept.push_back(uuid);
    if (kept.empty()) kept.push_back(pool.runs.front());  // at least the newest run
    pool.cut = kept.size() < pool.runs.size();
    pool.runs = std::move(kept);
  }
  return pools;
}

void apply_pools(std::vector<Run>& baseline, const BaselinePools& pools) {
  for (Run& run : baseline)
    run.results.erase(std::remove_if(run.results.begin(), run.results.end(),
                                     [&](const Result& r) {
                                       const auto it = pools.find(r.key.id());
                                       if (it == pools.end()) return false;
                                       const auto& runs = it->second.runs;
                                       return std::find(runs.begin(), runs.end(), run.uuid) ==
                                              runs.end();
                                     }),
                      run.results.end());
}

void record_pools(regress::Comparison& comparison, const BaselinePools& pools) {
  for (VerdictRecord& v : comparison.verdicts) {
    const auto it = pools.find(v.series_id);
    if (it == pools.end()) continue;
    const SeriesPool& pool = it->second;
    nlohmann::json j = {
        {"runs", pool.runs}, {"history_runs", pool.history_runs}, {"cut", pool.cut}};
    if (!pool.change_point_run.empty()) {
      j["change_point_run"] = pool.change_point_run;
      j["change_point_commit"] = pool.change_point_commit;
      j["relative_change"] = pool.relative_change;
    }
    v.details["baseline_pool"] = std::move(j);
  }
}

}  // namespace perfgate::cli
