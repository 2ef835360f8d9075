#include "perfgate/scaling/launcher.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "launchers.hpp"
#include "perfgate/core/error.hpp"
#include "slurm_text.hpp"

namespace perfgate::scaling {

std::string tail_lines(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  if (pos && text[pos - 1] == '\n') --pos;
  while (pos > 0 && lines > 0) {
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
    --lines;
  }
  return lines == 0 ? text.substr(pos + 1) : text;
}

std::vector<LaunchOutcome> Launcher::launch_all(const std::vector<LaunchRequest>& requests) {
  std::vector<LaunchOutcome> out;
  for (const LaunchRequest& r : requests) out.push_back(launch(r));
  return out;
}

std::unique_ptr<Launcher> make_launcher(const std::string& kind, const LauncherOptions& options) {
  if (kind == "local") return detail::make_local_launcher(options);
  if (kind == "slurm") return detail::make_srun_launcher(options);
  if (kind == "sbatch") return detail::make_sbatch_launcher(options);
  throw InputError(fmt::format("--launcher: unknown launcher '{}' (local, slurm or sbatch)", kind));
}

namespace detail {

LaunchOutcome outcome_from_process(const ProcessResult& r, const LaunchRequest& req) {
  LaunchOutcome out;
  out.log_tail = tail_lines(r.out + r.err, 20);
  if (!r.ok()) {
    const std::string last = tail_lines(r.err.empty() ? r.out : r.err, 1);
    out.failure =
        r.describe() + (last.empty() ? "" : ": " + last.substr(0, last.find_last_not_of("\n") + 1));
  } else if (!std::filesystem::exists(req.document)) {
    out.failure = fmt::format("finished without writing {}", req.document.string());
  } else {
    out.ok = true;
  }
  return out;
}

std::string resolve_mpi_plugin(const LauncherOptions& o) {
  if (!o.slurm_mpi.empty()) return o.slurm_mpi;
  ProcessOptions opts;
  opts.timeout = std::chrono::seconds(30);
  const ProcessResult r = run_process({o.srun, "--mpi=list"}, opts);
  // srun 22.05 prints the list on stderr.
  return choose_mpi_plugin(r.out + r.err);
}

std::vector<std::string> srun_options(const ScalePoint& p, const std::string& mpi,
                                      const std::string& partition) {
  std::vector<std::string> argv{"-N",
                                std::to_string(p.nodes),
                                "-n",
                                std::to_string(p.ranks()),
                                "--ntasks-per-node=" + std::to_string(p.ranks_per_node),
                                "--mpi=" + mpi,
                                "--kill-on-bad-exit=1",
                                "-v"};
  if (p.gpus_per_node > 0) argv.push_back("--gpus-per-node=" + std::to_string(p.gpus_per_node));
  if (!partition.empty()) argv.push_back("--partition=" + partition);
  return argv;
}

}  // namespace detail

}  // namespace perfgate::scaling
