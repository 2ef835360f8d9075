#include "report_material.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "perfgate/regress/changepoints.hpp"

namespace perfgate::cli {

namespace {

// A sweep series without its position on the scaling axis: the curve it belongs to.
std::string curve_id(const SeriesKey& key) {
  SeriesKey k = key;
  k.params.erase("nodes");
  k.params.erase("ranks_per_node");
  return k.id();
}

// curve id → ranks → median, for results of `metric` that carry a scale.
std::map<std::string, std::map<int, double>> by_scale(const Run& run, const std::string& metric) {
  std::map<std::string, std::map<int, double>> out;
  for (const Result& r : run.results)
    if (r.key.metric == metric && r.scale && r.status == ResultStatus::ok && r.summary.n > 0)
      out[curve_id(r.key)][r.scale->ranks] = r.summary.median;
  return out;
}

}  // namespace

std::vector<report::ScalingCurve> scaling_curves(const Run& candidate,
                                                 const std::vector<Run>& baseline) {
  std::map<std::string, std::map<int, double>> base;
  for (const Run& run : baseline)
    for (const auto& [id, points] : by_scale(run, "efficiency"))
      base[id].insert(points.begin(), points.end());
  std::vector<report::ScalingCurve> out;
  for (const auto& [id, points] : by_scale(candidate, "efficiency")) {
    report::ScalingCurve c;
    c.series_id = id;
    for (const auto& [ranks, eff] : points) {
      c.scales.push_back(ranks);
      c.efficiency.push_back(eff);
      const auto b = base.find(id);
      const bool known = b != base.end() && b->second.count(ranks);
      c.baseline_efficiency.push_back(known ? b->second.at(ranks)
                                            : std::numeric_limits<double>::quiet_NaN());
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<report::StepDecomposition> step_decomposition(const Run& candidate) {
  const auto compute = by_scale(candidate, "compute_time");
  if (compute.empty()) return {};
  const std::string& id = compute.begin()->first;
  const auto metric_of = [&](const std::string& metric) {
    auto all = by_scale(candidate, metric);
    // curve ids carry the metric; look the same workload up under the other metric.
    const std::string stem = id.substr(0, id.rfind('@'));
    return all.count(stem + "@" + metric) ? all.at(stem + "@" + metric) : std::map<int, double>{};
  };
  const auto comm = metric_of("comm_time"), exposed = metric_of("exposed_comm_time"),
             step = metric_of("time");
  std::vector<report::StepDecomposition> out;
  for (const auto& [ranks, c] : compute.begin()->second) {
    report::StepDecomposition d;
    d.scale = ranks;
    d.compute = c;
    d.communication = comm.count(ranks) ? comm.at(ranks) : 0;
    d.exposed_communication = exposed.count(ranks) ? exposed.at(ranks) : 0;
    d.step = step.count(ranks) ? step.at(ranks) : c + d.exposed_communication;
    out.push_back(d);
  }
  return out;
}

std::vector<report::HistorySeries> histories(baselines::Store& store,
                                             const regress::Comparison& comparison,
                                             const Run& candidate, std::size_t max_series,
                                             std::size_t last_n) {
  std::map<std::string, Direction> direction;
  for (const Result& r : candidate.results) direction[r.key.id()] = r.direction;
  // Series needing attention first (the comparison lists the worst first), SAME ones after.
  std::vector<const VerdictRecord*> chosen;
  for (int pass = 0; pass < 2; ++pass)
    for (const VerdictRecord& v : comparison.verdicts)
      if ((v.kind == VerdictKind::same) == (pass == 1) && chosen.size() < max_series &&
          v.kind != VerdictKind::missing)
        chosen.push_back(&v);

  baselines::HistoryFilter filter;
  filter.fingerprint_digest = candidate.fingerprint.digest();
  filter.last_n = last_n;
  std::vector<report::HistorySeries> out;
  for (const VerdictRecord* v : chosen) {
    report::HistorySeries h;
    h.series_id = v->series_id;
    const std::set<std::string> baseline_runs(v->baseline_runs.begin(), v->baseline_runs.end());
    std::vector<double> baseline_medians;
    for (const auto& p : store.history(v->series_id, filter)) {
      if (p.status != ResultStatus::ok || p.summary.n == 0) continue;
      h.run_uuids.push_back(p.run_uuid);
      h.labels.push_back(p.commit.empty() ? p.started_at.substr(0, 10) : p.commit.substr(0, 10));
      h.medians.push_back(p.summary.median);
      if (baseline_runs.count(p.run_uuid)) baseline_medians.push_back(p.summary.median);
    }
    if (h.medians.size() < 2) continue;
    if (!baseline_medians.empty()) {
      const double level = summarize(baseline_medians).median;
      h.baseline_low = level * (1 - v->tolerance);
      h.baseline_high = level * (1 + v->tolerance);
    }
    regress::DetectConfig config;
    if (auto d = direction.find(v->series_id); d != direction.end()) config.direction = d->second;
    if (h.medians.size() >= 2 * config.min_segment)
      for (const auto& cp :
           regress::detect_change_points(h.medians, h.labels, config).change_points)
        h.change_points.push_back(cp.index);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace perfgate::cli
