#pragma once
// How each workload is invoked at a scale point, and what the sweep reads back from the
// result document the workload's program writes.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perfgate/core/model.hpp"
#include "perfgate/scaling/plan.hpp"

namespace perfgate::scaling {

// Where the workload programs live (perfgate-collectives, perfgate-step-proxy).
struct ProgramPaths {
  std::string collectives = "perfgate-collectives";
  std::string step_proxy = "perfgate-step-proxy";
};

// The program and its arguments for one scale point; the program writes its document to `output`.
std::vector<std::string> workload_argv(const SweepPlan& plan, const ScalePoint& point,
                                       const ProgramPaths& programs,
                                       const std::filesystem::path& output);

// A rank's identity as the workload reported it.
struct RankInfo {
  int rank = 0;
  std::string host;
};

// One measured case at one scale point (one message size, or the step).
struct PointMeasure {
  std::string case_name;             // "bytes:1048576" or "step"
  Params params;                     // the case's parameters (without scale)
  std::vector<double> time_us;       // samples
  std::optional<double> busbw_gbps;  // median, when the workload moves bytes
  double per_rank_throughput = 0;    // higher is better; what efficiency compares
  std::string throughput_unit;       // "GB/s" (busbw) or "samples/s"
  std::vector<double> per_rank_us;   // indexed by rank
  std::vector<int> straggler_ranks;
  nlohmann::json decomposition;  // step proxy: compute/comm/exposed/overlap/mfu (object or null)
  nlohmann::json checks;  // step proxy: its gradient and model checks' records (object or null)
};

struct PointReadout {
  std::vector<PointMeasure> cases;
  std::vector<RankInfo> ranks;
  Fingerprint fingerprint;
};

// Reads the cases the sweep aggregates from a workload's document. Throws InputError naming
// `source` when the document lacks them.
PointReadout read_point(const SweepPlan& plan, const Run& doc, const std::string& source);

}  // namespace perfgate::scaling
