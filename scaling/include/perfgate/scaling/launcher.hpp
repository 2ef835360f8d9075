#pragma once
// Launchers start one scale point of a sweep through an existing engine (OpenMPI's mpirun,
// Slurm's srun or sbatch) from argument vectors; they never spawn processes on other hosts
// themselves.
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "perfgate/scaling/plan.hpp"

namespace perfgate::scaling {

struct LaunchRequest {
  ScalePoint point;
  std::vector<std::string> program;  // workload argv; its document goes to `document`
  std::filesystem::path document;
  std::filesystem::path work_dir;  // per-point folder for logs and batch scripts
  std::map<std::string, std::string> env;
  std::chrono::seconds timeout{300};
};

struct LaunchOutcome {
  bool ok = false;
  std::string failure;   // why the point has no document ("exit 1: ...", "timed out after 300 s")
  std::string job_id;    // Slurm job (and step) id when there is one
  std::string nodelist;  // Slurm node list when there is one
  std::string log_tail;  // last lines of the launcher's output, kept for the failure record
  std::map<int, std::string> rank_hosts;  // rank -> node name, where the launcher says
};

class Launcher {
 public:
  virtual ~Launcher() = default;
  virtual std::string name() const = 0;
  // Launcher facts worth recording in the sweep document (e.g. the Slurm MPI plugin).
  virtual std::map<std::string, std::string> labels() const { return {}; }
  // What launch() would run, for `perfgate sweep --plan` (no side effects).
  virtual std::vector<std::string> command(const LaunchRequest& request) const = 0;
  // Runs one point; failures are reported in the outcome, not thrown.
  virtual LaunchOutcome launch(const LaunchRequest& request) = 0;
  // Runs every point; one after another unless the launcher can queue them all at once (sbatch).
  virtual std::vector<LaunchOutcome> launch_all(const std::vector<LaunchRequest>& requests);
};

struct LauncherOptions {
  std::string mpirun = "mpirun";
  std::string srun = "srun", sbatch = "sbatch", scancel = "scancel", scontrol = "scontrol";
  std::string slurm_mpi;  // empty: pmix when `srun --mpi=list` offers it, else pmi2, else none
  std::string partition;  // sbatch/srun -p, empty: default
  std::filesystem::path sbatch_template;  // empty: the built-in template
  std::chrono::milliseconds poll_interval{500};
};

// kind: "local", "slurm" or "sbatch". Throws InputError for another kind.
std::unique_ptr<Launcher> make_launcher(const std::string& kind, const LauncherOptions& options);

// Last `lines` lines of `text`.
std::string tail_lines(const std::string& text, std::size_t lines);

}  // namespace perfgate::scaling
