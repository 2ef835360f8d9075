#pragma once
// The launcher implementations behind make_launcher (internal).
#include <memory>

#include "perfgate/core/process.hpp"
#include "perfgate/scaling/launcher.hpp"

namespace perfgate::scaling::detail {

std::unique_ptr<Launcher> make_local_launcher(const LauncherOptions& o);
std::unique_ptr<Launcher> make_srun_launcher(const LauncherOptions& o);
std::unique_ptr<Launcher> make_sbatch_launcher(const LauncherOptions& o);

// ok when the process succeeded and the document exists; otherwise says why.
LaunchOutcome outcome_from_process(const ProcessResult& r, const LaunchRequest& req);

// The --mpi plugin: the configured one, else what `srun --mpi=list` offers (pmix first).
std::string resolve_mpi_plugin(const LauncherOptions& o);

// srun's own options for one point (without the program).
std::vector<std::string> srun_options(const ScalePoint& p, const std::string& mpi,
                                      const std::string& partition);

}  // namespace perfgate::scaling::detail
