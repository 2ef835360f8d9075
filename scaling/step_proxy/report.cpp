#include "report.hpp"

#include <algorithm>
#include <set>

#include "perfgate/core/fingerprint.hpp"
#include "perfgate/core/identity.hpp"

namespace perfgate::step_proxy {

namespace {

Result metric(const Params& params, const std::string& name, const std::string& unit, Direction dir,
              std::vector<double> samples, const Scale& scale) {
  Result r;
  r.key = {"step_proxy", params, name};
  r.unit = unit;
  r.direction = dir;
  r.samples = std::move(samples);
  r.summary = summarize(r.samples);
  r.scale = scale;
  return r;
}

nlohmann::json gradient_check_json(const GradientCheckResult& c) {
  nlohmann::json j = {
      {"made", c.made},
      {"buckets", c.buckets},
      {"ranks", c.ranks},
      {"exact_pass", {{"buckets", c.exact.buckets}, {"elements_per_rank", c.exact.elements}}}};
  if (c.made) {
    j["worst_deviation"] = c.worst_deviation;
    j["tolerance"] = c.tolerance;
  } else {
    j["reason"] = c.reason;
  }
  return j;
}

nlohmann::json model_check_json(const ModelCheckResult& c) {
  if (!c.made) return {{"made", false}, {"reason", c.reason}};
  return {{"made", true},
          {"worst_error", c.worst_error},
          {"bound", c.bound},
          {"worst_matrix", c.matrix}};
}

}  // namespace

Run build_report(const ProxyRunInfo& info, const std::vector<std::vector<StepTimes>>& per_rank) {
  const std::size_t ranks = per_rank.size(), reps = per_rank.front().size();
  const Shape& s = info.shape;
  const std::set<std::string> hosts(info.rank_hosts.begin(), info.rank_hosts.end());
  const Scale scale{static_cast<int>(hosts.size()), 0, static_cast<int>(ranks)};
  const Params params{{"backend", info.backend},
                      {"layers", std::to_string(s.layers)},
                      {"hidden", std::to_string(s.hidden)},
                      {"heads", std::to_string(s.heads)},
                      {"seq", std::to_string(s.seq)},
                      {"batch", std::to_string(s.batch)},
                      {"bucket_bytes", std::to_string(info.bucket_bytes)}};
  // Means over ranks keep the decomposition additive: step ≈ compute + exposed communication.
  std::vector<double> step, compute, comm, exposed, other, overlap, mfu, throughput;
  for (std::size_t rep = 0; rep < reps; ++rep) {
    StepTimes sum;
    for (std::size_t r = 0; r < ranks; ++r) sum += per_rank[r][rep];
    const double n = static_cast<double>(ranks);
    step.push_back(sum.step_us / n);
    compute.push_back(sum.compute_us / n);
    comm.push_back(sum.comm_us / n);
    exposed.push_back(sum.exposed_us / n);
    // What neither compute nor waiting explains: scheduling, enqueueing, preemption.
    other.push_back(step.back() - compute.back() - exposed.back());
    overlap.push_back(
        comm.back() > 0 ? std::clamp((comm.back() - exposed.back()) / comm.back(), 0.0, 1.0) : 1.0);
    mfu.push_back(info.ceiling_flops_per_s > 0
                      ? s.flops_per_step() / (step.back() * 1e-6) / info.ceiling_flops_per_s
                      : 0);
    throughput.push_back(s.batch / (step.back() * 1e-6));
  }
  // A rank's own work is its compute; in a synchronous step everyone's step time is alike.
  std::vector<double> own;
  for (const auto& reps_of_rank : per_rank) {
    double c = 0;
    for (const StepTimes& t : reps_of_rank) c += t.compute_us;
    own.push_back(c / static_cast<double>(reps));
  }
  std::vector<double> sorted = own;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t mid = sorted.size() / 2;
  const double median = sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  nlohmann::json stragglers = nlohmann::json::array();
  for (std::size_t r = 0; r < ranks; ++r)
    if (own[r] > median * (1 + info.straggler_margin)) stragglers.push_back(static_cast<int>(r));

  Run run;
  run.uuid = new_uuid();
  run.suite = info.suite;
  run.started_at = run.ended_at = utc_now_iso8601();
  run.fingerprint = collect_fingerprint(this_build());
  run.labels = {{"backend", info.backend}, {"mode", "step_proxy"}};
  Result st = metric(params, "step_time", "us", Direction::lower_is_better, step, scale);
  st.extra["per_rank_us"] = own;
  st.extra["stragglers"] = stragglers;
  st.extra["straggler_margin"] = info.straggler_margin;
  run.results.push_back(std::move(st));
  run.results.push_back(
      metric(params, "compute_time", "us", Direction::lower_is_better, compute, scale));
  run.results.push_back(metric(params, "comm_time", "us", Direction::lower_is_better, comm, scale));
  run.results.push_back(
      metric(params, "exposed_comm_time", "us", Direction::lower_is_better, exposed, scale));
  run.results.push_back(
      metric(params, "other_time", "us", Direction::lower_is_better, other, scale));
  run.results.push_back(
      metric(params, "overlap_fraction", "ratio", Direction::higher_is_better, overlap, scale));
  run.results.push_back(metric(params, "mfu", "ratio", Direction::higher_is_better, mfu, scale));
  run.results.push_back(
      metric(params, "throughput", "samples/s", Direction::higher_is_better, throughput, scale));
  nlohmann::json rank_list = nlohmann::json::array();
  for (std::size_t r = 0; r < ranks; ++r)
    rank_list.push_back({{"rank", r}, {"host", info.rank_hosts[r]}});
  run.metadata["step_proxy"] = {{"ranks", rank_list},
                                {"flops_per_step", s.flops_per_step()},
                                {"ceiling_gflops", info.ceiling_flops_per_s / 1e9},
                                {"mpi_thread_level", info.thread_level},
                                {"stragglers", stragglers},
                                {"compute", info.compute},
                                {"gradient_check", gradient_check_json(info.gradient_check)},
                                {"model_check", model_check_json(info.model_check)}};
  return run;
}

}  // namespace perfgate::step_proxy
