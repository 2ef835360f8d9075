// sbatch: one batch job per scale point, all submitted first, then waited for together; the
// job ids, node lists and logs are recorded with each point.
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "launchers.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/scaling/batch_script.hpp"
#include "slurm_text.hpp"

namespace perfgate::scaling::detail {

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string time_limit(std::chrono::seconds s) {
  const long long t = s.count();
  return fmt::format("{:02}:{:02}:{:02}", t / 3600, (t / 60) % 60, t % 60);
}

class SbatchLauncher final : public Launcher {
 public:
  explicit SbatchLauncher(LauncherOptions o) : options_(std::move(o)) {
    if (!options_.sbatch_template.empty()) {
      if (!std::filesystem::exists(options_.sbatch_template))
        throw InputError(
            fmt::format("{}: sbatch template not found", options_.sbatch_template.string()));
      template_ = read_text(options_.sbatch_template);
    } else {
      template_ = default_batch_template();
    }
  }
  std::string name() const override { return "sbatch"; }
  std::map<std::string, std::string> labels() const override { return {{"slurm.mpi", mpi()}}; }

  std::vector<std::string> command(const LaunchRequest& req) const override {
    return {options_.sbatch, "--parsable", script_path(req).string()};
  }

  // The rendered script, for `--plan` and for the submission.
  std::string script(const LaunchRequest& req) const {
    BatchScriptInput in;
    in.job_name = "perfgate-" + req.point.label();
    in.point = req.point;
    in.log_path = (req.work_dir / "slurm-%j.out").string();
    in.time_limit = time_limit(req.timeout);
    in.partition = options_.partition;
    in.mpi = mpi();
    in.env = req.env;
    in.program = req.program;
    const std::string source = options_.sbatch_template.empty() ? "built-in sbatch template"
                                                                : options_.sbatch_template.string();
    return render_batch_script(template_, in, source);
  }

  LaunchOutcome launch(const LaunchRequest& req) override { return launch_all({req}).front(); }

  std::vector<LaunchOutcome> launch_all(const std::vector<LaunchRequest>& reqs) override {
    std::vector<LaunchOutcome> out(reqs.size());
    for (std::size_t i = 0; i < reqs.size(); ++i) submit(reqs[i], out[i]);
    for (std::size_t i = 0; i < reqs.size(); ++i)
      if (out[i].failure.empty()) wait_and_collect(reqs[i], out[i]);
    return out;
  }

 private:
  static std::filesystem::path script_path(const LaunchRequest& req) {
    return req.work_dir / "point.sbatch";
  }

  void submit(const LaunchRequest& req, LaunchOutcome& out) const {
    std::filesystem::create_directories(req.work_dir);
    {
      std::ofstream f(script_path(req));
      f << script(req);
      if (!f) {
        out.failure = "cannot write " + script_path(req).string();
        return;
      }
    }
    ProcessOptions opts;
    opts.timeout = std::chrono::seconds(60);
    opts.working_dir = req.work_dir.string();
    const ProcessResult r = run_process(command(req), opts);
    if (!r.ok()) {
      out.failure = "sbatch " + r.describe() + ": " + tail_lines(r.err, 3);
      return;
    }
    out.job_id = r.out.substr(0, r.out.find_first_of(";\n"));
    if (out.job_id.empty()) out.failure = "sbatch printed no job id";
  }

  std::string show_job(const std::string& id) const {
    ProcessOptions opts;
    opts.timeout = std::chrono::seconds(30);
    return run_process({options_.scontrol, "show", "job", "-o", id}, opts).out;
  }

  void wait_and_collect(const LaunchRequest& req, LaunchOutcome& out) const {
    const auto deadline = std::chrono::steady_clock::now() + req.timeout + std::chrono::seconds(60);
    std::string info, state;
    while (true) {
      info = show_job(out.job_id);
      state = scontrol_field(info, "JobState");
      if (!state.empty() && state != "PENDING" && state != "RUNNING" && state != "CONFIGURING" &&
          state != "COMPLETING" && state != "SUSPENDED")
        break;
      if (std::chrono::steady_clock::now() > deadline) {
        ProcessOptions opts;
        opts.timeout = std::chrono::seconds(30);
        run_process({options_.scancel, out.job_id}, opts);
        out.failure = fmt::format("job {} still {} after the point's time limit; cancelled",
                                  out.job_id, state.empty() ? "unknown" : state);
        return;
      }
      std::this_thread::sleep_for(options_.poll_interval);
    }
    out.nodelist = scontrol_field(info, "NodeList");
    const std::string log = read_text(req.work_dir / fmt::format("slurm-{}.out", out.job_id));
    out.log_tail = tail_lines(log, 20);
    out.rank_hosts = rank_hosts_from_srun_log(log, req.point.ranks());
    if (state != "COMPLETED") {
      out.failure = fmt::format("job {} ended {} (exit {})", out.job_id, state,
                                scontrol_field(info, "ExitCode"));
    } else if (!std::filesystem::exists(req.document)) {
      out.failure =
          fmt::format("job {} completed without writing {}", out.job_id, req.document.string());
    } else {
      out.ok = true;
    }
  }

  const std::string& mpi() const {
    if (mpi_.empty()) mpi_ = resolve_mpi_plugin(options_);
    return mpi_;
  }

  LauncherOptions options_;
  std::string template_;
  mutable std::string mpi_;
};

}  // namespace

std::unique_ptr<Launcher> make_sbatch_launcher(const LauncherOptions& o) {
  return std::make_unique<SbatchLauncher>(o);
}

}  // namespace perfgate::scaling::detail
