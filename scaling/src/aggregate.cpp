#include "perfgate/scaling/aggregate.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace perfgate::scaling {

double scaling_efficiency(double per_rank_throughput, double reference_per_rank_throughput) {
  return reference_per_rank_throughput > 0 ? per_rank_throughput / reference_per_rank_throughput
                                           : 0.0;
}

std::string sweep_family(const SweepPlan& plan) {
  return plan.workload.kind == WorkloadKind::collective
             ? "sweep." + plan.workload.collective
             : "sweep." + std::string(to_string(plan.workload.kind));
}

namespace {

nlohmann::json point_json(const ScalePoint& p) {
  return {{"nodes", p.nodes},
          {"ranks_per_node", p.ranks_per_node},
          {"gpus_per_node", p.gpus_per_node},
          {"ranks", p.ranks()},
          {"label", p.label()}};
}

Params series_params(const SweepPlan& plan, const ScalePoint& p, const Params& case_params) {
  Params out = case_params;
  out["mode"] = std::string(to_string(plan.mode));
  out["nodes"] = std::to_string(p.nodes);
  out["ranks_per_node"] = std::to_string(p.ranks_per_node);
  return out;
}

Result make_result(const SweepPlan& plan, const PointRecord& rec, const Params& params,
                   const std::string& metric, const std::string& unit, Direction direction,
                   std::vector<double> samples) {
  Result r;
  r.key = {sweep_family(plan), params, metric};
  r.unit = unit;
  r.direction = direction;
  r.samples = std::move(samples);
  r.summary = summarize(r.samples);
  r.scale = rec.point.scale();
  return r;
}

std::string host_of(const PointRecord& rec, int rank) {
  if (auto it = rec.launch.rank_hosts.find(rank); it != rec.launch.rank_hosts.end())
    return it->second;
  for (const RankInfo& r : rec.readout->ranks)
    if (r.rank == rank) return r.host;
  return "";
}

// Per-repetition throughputs: the median throughput scaled by each repetition's speed.
std::vector<double> throughput_samples(const PointMeasure& m) {
  const double median_time = summarize(m.time_us).median;
  std::vector<double> out;
  for (double t : m.time_us)
    if (t > 0) out.push_back(m.per_rank_throughput * median_time / t);
  return out;
}

// The reference of each case: the smallest-scale point with a positive throughput (a 1-rank
// all_reduce moves no bytes between ranks, so its busbw is 0 and cannot be a reference).
std::map<std::string, std::pair<const PointRecord*, const PointMeasure*>> references(
    const std::vector<PointRecord>& points) {
  std::map<std::string, std::pair<const PointRecord*, const PointMeasure*>> out;
  for (const PointRecord& rec : points) {
    if (!rec.readout) continue;
    for (const PointMeasure& m : rec.readout->cases)
      if (m.per_rank_throughput > 0 && !out.count(m.case_name)) out[m.case_name] = {&rec, &m};
  }
  return out;
}

void add_point_results(const SweepPlan& plan, const PointRecord& rec, const PointMeasure& m,
                       const std::pair<const PointRecord*, const PointMeasure*>* ref, Run& run,
                       nlohmann::json& point_out) {
  const Params params = series_params(plan, rec.point, m.params);
  Result time = make_result(plan, rec, params, "time", "us", Direction::lower_is_better, m.time_us);
  nlohmann::json stragglers = nlohmann::json::array();
  for (int rank : m.straggler_ranks)
    stragglers.push_back({{"rank", rank}, {"host", host_of(rec, rank)}});
  time.extra["per_rank_us"] = m.per_rank_us;
  time.extra["stragglers"] = stragglers;
  nlohmann::json hosts = nlohmann::json::object();
  for (int rank = 0; rank < rec.point.ranks(); ++rank)
    hosts[std::to_string(rank)] = host_of(rec, rank);
  time.extra["rank_hosts"] = hosts;
  run.results.push_back(std::move(time));

  const std::vector<double> thr = throughput_samples(m);
  if (m.busbw_gbps) {
    std::vector<double> busbw = thr;  // busbw is the per-rank throughput for collectives
    run.results.push_back(
        make_result(plan, rec, params, "busbw", "GB/s", Direction::higher_is_better, busbw));
  } else {
    run.results.push_back(make_result(plan, rec, params, "throughput", m.throughput_unit,
                                      Direction::higher_is_better, thr));
  }

  nlohmann::json case_out = {{"case", m.case_name},
                             {"time_us", summarize(m.time_us).median},
                             {"per_rank_throughput", m.per_rank_throughput},
                             {"throughput_unit", m.throughput_unit},
                             {"stragglers", stragglers}};
  if (m.busbw_gbps) case_out["busbw_gbps"] = *m.busbw_gbps;
  if (ref && m.per_rank_throughput > 0) {  // a 1-rank all_reduce has no efficiency
    const double ref_thr = ref->second->per_rank_throughput;
    std::vector<double> eff;
    for (double t : thr) eff.push_back(scaling_efficiency(t, ref_thr));
    Result e =
        make_result(plan, rec, params, "efficiency", "ratio", Direction::higher_is_better, eff);
    e.extra["reference"] = ref->first->point.label();
    e.extra["efficiency"] = scaling_efficiency(m.per_rank_throughput, ref_thr);
    case_out["efficiency"] = e.extra["efficiency"];
    case_out["reference"] = ref->first->point.label();
    run.results.push_back(std::move(e));
  }
  if (m.decomposition.is_object()) {
    case_out["decomposition"] = m.decomposition;
    for (const auto& [metric, value] : m.decomposition.items()) {
      if (metric == "step_time" || !value.is_number()) continue;
      const bool ratio =
          metric == "overlap_fraction" || metric == "mfu" || metric == "overlap_efficiency";
      run.results.push_back(make_result(
          plan, rec, params, metric, ratio ? "ratio" : "us",
          ratio ? Direction::higher_is_better : Direction::lower_is_better, {value.get<double>()}));
    }
  }
  if (m.checks.is_object() && !m.checks.empty()) case_out["checks"] = m.checks;
  point_out["cases"].push_back(case_out);
}

void add_failed_point(const SweepPlan& plan, const PointRecord& rec, Run& run) {
  // One failed series per point keeps the gap visible to compare (FAILED, not silently absent).
  Result r = make_result(plan, rec, series_params(plan, rec.point, {}), "efficiency", "ratio",
                         Direction::higher_is_better, {});
  r.status = ResultStatus::error;
  r.message = fmt::format("scale point {} missing: {}", rec.point.label(), rec.failure);
  run.results.push_back(std::move(r));
}

}  // namespace

void aggregate_sweep(const SweepPlan& plan, const std::vector<PointRecord>& points,
                     const SweepContext& context, Run& run) {
  const auto refs = references(points);
  nlohmann::json sweep = {{"name", plan.name},
                          {"plan", plan.source},
                          {"mode", to_string(plan.mode)},
                          {"workload", sweep_family(plan).substr(6)},
                          {"launcher", context.launcher},
                          {"launcher_labels", context.launcher_labels},
                          {"env", context.recorded_env},
                          {"points", nlohmann::json::array()},
                          {"missing", nlohmann::json::array()}};
  std::size_t ok_points = 0;
  bool fingerprint_set = false;
  for (const PointRecord& rec : points) {
    nlohmann::json p = point_json(rec.point);
    p["job_id"] = rec.launch.job_id;
    p["nodelist"] = rec.launch.nodelist;
    p["document"] = rec.document;
    if (!rec.readout) {
      p["status"] = "missing";
      p["reason"] = rec.failure;
      sweep["missing"].push_back({{"point", rec.point.label()},
                                  {"reason", rec.failure},
                                  {"job_id", rec.launch.job_id},
                                  {"log_tail", rec.launch.log_tail}});
      add_failed_point(plan, rec, run);
      sweep["points"].push_back(p);
      continue;
    }
    ++ok_points;
    if (!fingerprint_set) {
      run.fingerprint = rec.readout->fingerprint;
      fingerprint_set = true;
    }
    p["status"] = "ok";
    p["cases"] = nlohmann::json::array();
    for (const PointMeasure& m : rec.readout->cases) {
      auto ref = refs.find(m.case_name);
      add_point_results(plan, rec, m, ref == refs.end() ? nullptr : &ref->second, run, p);
    }
    sweep["points"].push_back(p);
  }
  std::string labels;
  for (const ScalePoint& p : plan.points) labels += (labels.empty() ? "" : ",") + p.label();
  run.fingerprint.comparable["scaling.points"] = labels;
  run.fingerprint.comparable["scaling.launcher"] = context.launcher;
  for (const auto& [k, v] : context.launcher_labels) run.fingerprint.info[k] = v;
  for (const std::string& kv : context.recorded_env) {
    const auto eq = kv.find('=');
    run.fingerprint.info["env." + kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  run.status = ok_points == points.size() ? RunStatus::complete
               : ok_points == 0           ? RunStatus::failed
                                          : RunStatus::partial;
  run.labels["sweep"] = plan.name;
  run.labels["scaling_mode"] = std::string(to_string(plan.mode));
  run.labels["launcher"] = context.launcher;
  run.metadata["sweep"] = std::move(sweep);
}

}  // namespace perfgate::scaling
