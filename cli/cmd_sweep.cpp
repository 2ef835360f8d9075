// `perfgate sweep NAME`: runs a scaling sweep plan through a launcher, writes the sweep
// document, prints the efficiency table and ingests the run.
#include <iostream>

#include <fmt/format.h>

#include "command.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/fingerprint.hpp"
#include "perfgate/core/identity.hpp"
#include "perfgate/scaling/sweep.hpp"
#include "sweep_cli.hpp"

namespace perfgate::cli {

namespace {

struct SweepCliOptions {
  std::string name, plan_file = "suites/sweeps.toml", launcher = "local", output, work_dir, db;
  std::string collectives, step_proxy, trigger = "adhoc";
  std::vector<std::string> bin_dirs, env, labels;
  scaling::LauncherOptions launch;
  std::string sbatch_template;
  bool plan_only = false, no_store = false;
};

std::pair<std::string, std::string> split_kv(const std::string& kv, const char* option) {
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("{}: '{}' is not KEY=VALUE", option, kv));
  return {kv.substr(0, eq), kv.substr(eq + 1)};
}

std::string joined(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

int print_plan(const scaling::SweepPlan& plan, const scaling::Launcher& launcher,
               const scaling::SweepOptions& options) {
  std::cout << fmt::format("sweep {} ({}): workload {}, {} scaling, launcher {}, {} points\n",
                           plan.name, plan.source, scaling::sweep_family(plan).substr(6),
                           scaling::to_string(plan.mode), launcher.name(), plan.points.size());
  for (const auto& [k, v] : plan.env) std::cout << fmt::format("  env {}={}\n", k, v);
  for (const auto& req : scaling::plan_requests(plan, options))
    std::cout << fmt::format("  {} nodes={} ranks/node={} gpus/node={} ranks={}\n    {}\n",
                             req.point.label(), req.point.nodes, req.point.ranks_per_node,
                             req.point.gpus_per_node, req.point.ranks(),
                             joined(launcher.command(req)));
  return exit_code::pass;
}

int run(const SweepCliOptions& o) {
  const auto plans = scaling::parse_plan_file(o.plan_file);
  const scaling::SweepPlan& plan = scaling::find_plan(plans, o.name);
  scaling::LauncherOptions lo = o.launch;
  lo.sbatch_template = o.sbatch_template;
  auto launcher = scaling::make_launcher(o.launcher, lo);
  scaling::SweepOptions so;
  so.programs = find_programs(o.bin_dirs, o.collectives, o.step_proxy);
  so.work_dir = o.work_dir.empty() ? std::filesystem::path("sweep-" + plan.name)
                                   : std::filesystem::path(o.work_dir);
  so.work_dir = std::filesystem::absolute(so.work_dir);
  for (const auto& kv : o.env) so.extra_env.insert(split_kv(kv, "--env"));
  if (o.plan_only) return print_plan(plan, *launcher, so);

  Run run;
  run.uuid = new_uuid();
  run.suite = plan.name;
  run.trigger = trigger_from_string(o.trigger);
  run.code = read_code_under_test(".");
  for (const auto& kv : o.labels) run.labels.insert(split_kv(kv, "--label"));
  scaling::run_sweep(plan, *launcher, so, run);
  if (run.results.empty() || run.fingerprint.comparable.size() <= 2)
    run.fingerprint = [&] {  // no point measured: still say where the sweep ran
      Fingerprint fp = collect_fingerprint(this_build());
      for (const auto& [k, v] : run.fingerprint.comparable) fp.comparable[k] = v;
      for (const auto& [k, v] : run.fingerprint.info) fp.info[k] = v;
      return fp;
    }();

  const std::filesystem::path output =
      o.output.empty() ? so.work_dir / "sweep.json" : std::filesystem::path(o.output);
  write_document_file(output, run);
  print_sweep_table(std::cout, run);
  for (const auto& m : run.metadata["sweep"]["missing"])
    std::cerr << fmt::format("perfgate sweep: point {} missing: {}\n", m.value("point", ""),
                             m.value("reason", ""));
  std::cout << "document: " << output.string() << "\n";
  if (!o.no_store) {
    auto store = baselines::Store::open(o.db, baselines::OpenMode::read_write);
    const auto out = store->ingest(run);
    std::cout << fmt::format("ingested {} ({} series)\n", out.run_uuid, out.series);
  }
  return run.status == RunStatus::failed ? exit_code::usage_or_tool_error : exit_code::pass;
}

}  // namespace

void add_sweep_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<SweepCliOptions>();
  auto* cmd = app.add_subcommand("sweep", "Run a scaling sweep (docs/scaling.md)");
  cmd->add_option("name", o->name, "sweep name in the plan file")->required();
  cmd->add_option("--plan-file", o->plan_file, "sweep plans (TOML, default suites/sweeps.toml)");
  cmd->add_flag("--plan", o->plan_only, "print what would run, run nothing");
  cmd->add_option("--launcher", o->launcher,
                  "local (mpirun) | slurm (srun steps) | sbatch (one job per point)")
      ->check(CLI::IsMember({"local", "slurm", "sbatch"}));
  cmd->add_option("--output", o->output, "sweep document (default WORK_DIR/sweep.json)");
  cmd->add_option("--work-dir", o->work_dir,
                  "per-point documents, logs, batch scripts (default ./sweep-NAME)");
  cmd->add_option("--bin-dir", o->bin_dirs,
                  "folder holding perfgate-collectives / perfgate-step-proxy");
  cmd->add_option("--collectives", o->collectives, "path of perfgate-collectives");
  cmd->add_option("--step-proxy", o->step_proxy, "path of perfgate-step-proxy");
  cmd->add_option("--env", o->env, "KEY=VALUE exported to every rank and recorded (repeatable)");
  cmd->add_option("--label", o->labels, "KEY=VALUE run label (repeatable)");
  cmd->add_option("--trigger", o->trigger, "nightly|premerge|adhoc");
  cmd->add_option("--mpirun", o->launch.mpirun, "mpirun program (local launcher)");
  cmd->add_option("--slurm-mpi", o->launch.slurm_mpi,
                  "srun --mpi plugin (default: pmix when offered)");
  cmd->add_option("--partition", o->launch.partition, "Slurm partition");
  cmd->add_option("--sbatch-template", o->sbatch_template,
                  "batch script template (scripts/slurm/)");
  cmd->add_flag("--no-store", o->no_store, "write the document only, do not ingest");
  add_db_option(*cmd, o->db);
  cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace perfgate::cli
