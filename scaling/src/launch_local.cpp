// local: OpenMPI's mpirun on this machine; the plan's nodes become virtual nodes (consecutive
// groups of ranks_per_node ranks), which is what lets a laptop or CI exercise a sweep.
#include <unistd.h>

#include <fmt/format.h>

#include "launchers.hpp"
#include "perfgate/core/process.hpp"

namespace perfgate::scaling::detail {

namespace {

class LocalLauncher final : public Launcher {
 public:
  explicit LocalLauncher(LauncherOptions o) : options_(std::move(o)) {}
  std::string name() const override { return "local"; }

  std::vector<std::string> command(const LaunchRequest& req) const override {
    std::vector<std::string> argv{options_.mpirun, "--oversubscribe", "-n",
                                  std::to_string(req.point.ranks())};
    for (const auto& [k, v] : req.env) argv.insert(argv.end(), {"-x", k + "=" + v});
    argv.insert(argv.end(), req.program.begin(), req.program.end());
    return argv;
  }

  LaunchOutcome launch(const LaunchRequest& req) override {
    ProcessOptions opts;
    opts.timeout = req.timeout;
    opts.working_dir = req.work_dir.string();
    if (geteuid() == 0) {  // OpenMPI refuses root unless told twice
      opts.extra_env["OMPI_ALLOW_RUN_AS_ROOT"] = "1";
      opts.extra_env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1";
    }
    const ProcessResult r = run_process(command(req), opts);
    LaunchOutcome out = outcome_from_process(r, req);
    for (int rank = 0; rank < req.point.ranks(); ++rank)
      out.rank_hosts[rank] = fmt::format("vnode{}", rank / req.point.ranks_per_node + 1);
    return out;
  }

 private:
  LauncherOptions options_;
};

}  // namespace

std::unique_ptr<Launcher> make_local_launcher(const LauncherOptions& o) {
  return std::make_unique<LocalLauncher>(o);
}

}  // namespace perfgate::scaling::detail
