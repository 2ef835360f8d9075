// slurm: one `srun` job step per scale point, inside the current allocation when there is one
// (otherwise srun makes its own).
#include <cstdlib>

#include "launchers.hpp"
#include "slurm_text.hpp"

namespace perfgate::scaling::detail {

namespace {

class SrunLauncher final : public Launcher {
 public:
  explicit SrunLauncher(LauncherOptions o) : options_(std::move(o)) {}
  std::string name() const override { return "slurm"; }

  std::map<std::string, std::string> labels() const override { return {{"slurm.mpi", mpi()}}; }

  std::vector<std::string> command(const LaunchRequest& req) const override {
    std::vector<std::string> argv{options_.srun};
    for (auto& o : srun_options(req.point, mpi(), options_.partition)) argv.push_back(o);
    // Outside an allocation srun makes a job of its own, which asks for whole nodes as a batch
    // point does; inside one, the step runs on the allocation's nodes as they are.
    if (!allocation_job_id()) argv.push_back("--exclusive");
    argv.insert(argv.end(), req.program.begin(), req.program.end());
    return argv;
  }

  LaunchOutcome launch(const LaunchRequest& req) override {
    ProcessOptions opts;
    opts.timeout = req.timeout;
    opts.working_dir = req.work_dir.string();
    opts.extra_env = req.env;
    const ProcessResult r = run_process(command(req), opts);
    LaunchOutcome out = outcome_from_process(r, req);
    out.job_id = step_id_from_srun_log(r.err);
    out.nodelist = nodelist_from_srun_log(r.err);
    out.rank_hosts = rank_hosts_from_srun_log(r.err, req.point.ranks());
    if (out.job_id.empty()) {
      if (const char* job = allocation_job_id()) out.job_id = job;
    }
    return out;
  }

 private:
  // The enclosing allocation's job id (salloc, sbatch); null outside one.
  static const char* allocation_job_id() { return std::getenv("SLURM_JOB_ID"); }

  const std::string& mpi() const {
    if (mpi_.empty()) mpi_ = resolve_mpi_plugin(options_);
    return mpi_;
  }
  LauncherOptions options_;
  mutable std::string mpi_;
};

}  // namespace

std::unique_ptr<Launcher> make_srun_launcher(const LauncherOptions& o) {
  return std::make_unique<SrunLauncher>(o);
}

}  // namespace perfgate::scaling::detail
