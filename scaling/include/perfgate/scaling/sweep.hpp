#pragma once
// Runs a sweep plan through a launcher and aggregates it into one sweep run.
#include <filesystem>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/scaling/aggregate.hpp"
#include "perfgate/scaling/launcher.hpp"
#include "perfgate/scaling/plan.hpp"
#include "perfgate/scaling/workload.hpp"

namespace perfgate::scaling {

struct SweepOptions {
  std::filesystem::path work_dir;  // per-point folders with documents, logs and batch scripts
  ProgramPaths programs;
  std::map<std::string, std::string> extra_env;  // --env, on top of the plan's env
};

// One request per scale point of `plan`.
std::vector<LaunchRequest> plan_requests(const SweepPlan& plan, const SweepOptions& options);

// Launches every point (a failing point is recorded, the sweep goes on) and aggregates.
// `run` arrives with uuid, suite, code, trigger and labels; started_at/ended_at are set here.
void run_sweep(const SweepPlan& plan, Launcher& launcher, const SweepOptions& options, Run& run);

// Reads back what a launch produced at one point.
PointRecord record_point(const SweepPlan& plan, const LaunchRequest& request,
                         LaunchOutcome outcome);

// NCCL_*, UCX_*, OMPI_MCA_*, FI_* and the plan's env, as "KEY=VALUE", sorted.
std::vector<std::string> recorded_environment(const std::map<std::string, std::string>& plan_env);

}  // namespace perfgate::scaling
