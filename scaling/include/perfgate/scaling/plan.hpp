#pragma once
// Sweep plans: which workload runs at which scales, read from a TOML file (suites/sweeps.toml).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "perfgate/core/model.hpp"

namespace perfgate::scaling {

enum class ScalingMode { weak, strong };
std::string_view to_string(ScalingMode m);

// What runs at each scale point.
enum class WorkloadKind { collective, overlap, buckets, step_proxy };
std::string_view to_string(WorkloadKind k);

// Step-proxy model shape (a stack of transformer layers, data parallel).
struct StepProxyShape {
  int layers = 2, hidden = 64, heads = 4, seq = 32;
  int batch = 2;  // weak: per rank; strong: global, divided over the ranks
  long long bucket_bytes = 64 * 1024;
};

struct Workload {
  WorkloadKind kind = WorkloadKind::collective;
  std::string collective = "all_reduce";  // kind == collective
  std::string backend = "mpi";            // mpi | nccl (collectives); cpu | cuda (step proxy)
  std::vector<long long> sizes{1 << 20};  // message bytes (collectives, overlap, buckets)
  int iters = 20, warmup = 5, repetitions = 5;
  StepProxyShape proxy;
  std::vector<std::string> extra_args;  // passed to the program verbatim
};

struct ScalePoint {
  int nodes = 1, ranks_per_node = 1, gpus_per_node = 0;
  int ranks() const { return nodes * ranks_per_node; }
  Scale scale() const { return {nodes, gpus_per_node, ranks()}; }
  std::string label() const;  // "N2xR4"
};

struct SweepPlan {
  std::string name;
  std::string source;  // "file:line" where the plan was declared
  Workload workload;
  ScalingMode mode = ScalingMode::weak;
  std::vector<ScalePoint> points;          // ascending ranks
  std::map<std::string, std::string> env;  // recorded and exported to every rank
  int point_timeout_s = 300;
};

// Parses every [[sweep]] table of a plan file. Throws InputError naming "file:line: key".
std::vector<SweepPlan> parse_plan_file(const std::filesystem::path& path);
std::vector<SweepPlan> parse_plan_text(const std::string& text, const std::string& source);

// The plan called `name`; throws InputError listing the names present.
const SweepPlan& find_plan(const std::vector<SweepPlan>& plans, const std::string& name);

}  // namespace perfgate::scaling
