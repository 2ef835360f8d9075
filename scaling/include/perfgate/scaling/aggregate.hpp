#pragma once
// Turns the per-point documents of a sweep into one sweep run: per scale point the merged
// per-rank results, scaling efficiency, busbw, stragglers, and the points that are missing.
#include <optional>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"
#include "perfgate/scaling/launcher.hpp"
#include "perfgate/scaling/plan.hpp"
#include "perfgate/scaling/workload.hpp"

namespace perfgate::scaling {

// What happened at one scale point.
struct PointRecord {
  ScalePoint point;
  LaunchOutcome launch;
  std::optional<PointReadout> readout;  // set when the point produced a usable document
  std::string failure;                  // why not (launch failure or unreadable document)
  std::string document;                 // path of the point's document
};

// Efficiency of one point against the reference point: per-rank throughput ratio. For weak
// scaling that is per-GPU throughput relative to the smallest scale; for strong scaling, where
// the total work is fixed, the same ratio equals speed-up / ideal speed-up.
double scaling_efficiency(double per_rank_throughput, double reference_per_rank_throughput);

// The sweep's family for series ids: "sweep.<collective>" or "sweep.<workload>".
std::string sweep_family(const SweepPlan& plan);

struct SweepContext {
  std::string launcher;
  std::map<std::string, std::string> launcher_labels;
  std::vector<std::string>
      recorded_env;  // "KEY=VALUE" of NCCL_*, UCX_*, OMPI_MCA_* and the plan's env
};

// Fills run.results, run.status, run.metadata["sweep"] and the fingerprint's scaling keys.
// `run` arrives with uuid, suite, code, times and labels set.
void aggregate_sweep(const SweepPlan& plan, const std::vector<PointRecord>& points,
                     const SweepContext& context, Run& run);

}  // namespace perfgate::scaling
