#include "perfgate/scaling/sweep.hpp"

#include <chrono>
#include <ctime>
#include <set>

#include <fmt/format.h>

#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/identity.hpp"

extern char** environ;

namespace perfgate::scaling {

std::vector<std::string> recorded_environment(const std::map<std::string, std::string>& plan_env) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = kv.substr(0, eq);
    for (const char* prefix : {"NCCL_", "UCX_", "OMPI_MCA_", "FI_", "CUDA_VISIBLE_DEVICES"})
      if (key.rfind(prefix, 0) == 0) env[key] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : plan_env) env[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

std::vector<LaunchRequest> plan_requests(const SweepPlan& plan, const SweepOptions& options) {
  std::vector<LaunchRequest> out;
  for (const ScalePoint& p : plan.points) {
    LaunchRequest r;
    r.point = p;
    r.work_dir = options.work_dir / p.label();
    r.document = r.work_dir / "result.json";
    r.program = workload_argv(plan, p, options.programs, r.document);
    r.env = plan.env;
    for (const auto& [k, v] : options.extra_env) r.env[k] = v;
    r.timeout = std::chrono::seconds(plan.point_timeout_s);
    out.push_back(std::move(r));
  }
  return out;
}

PointRecord record_point(const SweepPlan& plan, const LaunchRequest& request,
                         LaunchOutcome outcome) {
  PointRecord rec;
  rec.point = request.point;
  rec.document = request.document.string();
  rec.launch = std::move(outcome);
  if (!rec.launch.ok) {
    rec.failure = rec.launch.failure;
    return rec;
  }
  try {
    const Run doc = read_document_file(request.document);
    rec.readout = read_point(plan, doc, request.document.string());
  } catch (const InputError& e) {
    rec.failure = fmt::format("unreadable result: {}", e.what());
  }
  return rec;
}

void run_sweep(const SweepPlan& plan, Launcher& launcher, const SweepOptions& options, Run& run) {
  run.started_at = utc_now_iso8601();
  std::vector<LaunchRequest> requests = plan_requests(plan, options);
  for (const LaunchRequest& r : requests) {
    std::filesystem::create_directories(r.work_dir);
    std::filesystem::remove(r.document);  // a stale document must not pass for this run's
  }
  std::vector<LaunchOutcome> outcomes = launcher.launch_all(requests);
  std::vector<PointRecord> records;
  for (std::size_t i = 0; i < requests.size(); ++i)
    records.push_back(record_point(plan, requests[i], std::move(outcomes[i])));
  SweepContext ctx{launcher.name(), launcher.labels(), recorded_environment(plan.env)};
  aggregate_sweep(plan, records, ctx, run);
  run.ended_at = utc_now_iso8601();
}

}  // namespace perfgate::scaling
