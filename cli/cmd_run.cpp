// `perfgate run`: resolves a suite into cases, measures each case in its own process, writes
// the result document after every case, prints a table, and ingests the run into the store.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/core/fingerprint.hpp"
#include "perfgate/core/identity.hpp"
#include "perfgate/core/suite.hpp"
#include "perfgate/microbench/plan.hpp"
#include "perfgate/preflight/doctor.hpp"
#include "run_cases.hpp"
#include "run_ceilings.hpp"
#include "run_measure_options.hpp"
#include "run_progress.hpp"
#include "run_table.hpp"

namespace perfgate::cli {
namespace {

struct RunOptions {
  std::string suite = "smoke", filter, db, output, trigger = "adhoc";
  std::string branch, commit, suites_file;
  std::vector<std::string> labels;
  MeasureOptions measure;
  double case_timeout_s = 0;  // 0: the suite's
  bool no_store = false, list = false, strict = false;
};

std::filesystem::path suites_path(const RunOptions& o) {
  if (!o.suites_file.empty()) return o.suites_file;
  if (const char* env = std::getenv("PERFGATE_SUITES_FILE"); env && *env) return env;
  if (std::filesystem::exists("suites/suites.toml")) return "suites/suites.toml";
  return PERFGATE_DEFAULT_SUITES_FILE;
}

// The backends a run uses; for auto also one note per suite backend that cannot run here.
struct BackendChoice {
  std::vector<std::string> backends;
  std::vector<std::string> unavailable;  // "no CUDA device: the suite's cuda cases are not run …"
};

BackendChoice resolve_backends(const RunOptions& o, const SuiteConfig& suite) {
  const std::string& backend = o.measure.backend;
  if (backend == "cpu" || backend == "cuda") return {{backend}, {}};
  BackendChoice choice;  // auto: the suite's backends this machine can run
  for (const auto& b : microbench::available_backends())
    if (std::find(suite.backends.begin(), suite.backends.end(), b) != suite.backends.end())
      choice.backends.push_back(b);
  choice.unavailable = microbench::unavailable_backend_notes(suite.backends);
  if (!choice.backends.empty()) return choice;
  // Nothing of the suite can run here: a missing device (exit 4) unless no backend of the suite
  // is even built into this binary (a tool error, exit 2), the same split as naming the backend.
  const auto& probes = microbench::Registry::instance().backend_probes();
  const std::string why =
      fmt::format("suite '{}': {}", suite.name, fmt::join(choice.unavailable, "; "));
  if (std::any_of(suite.backends.begin(), suite.backends.end(),
                  [&](const std::string& b) { return probes.count(b) != 0; }))
    throw NoDeviceError(why);
  throw ToolError(why);
}

std::map<std::string, std::string> parse_labels(const std::vector<std::string>& labels) {
  std::map<std::string, std::string> out;
  for (const auto& l : labels) {
    const auto eq = l.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(fmt::format("--label '{}': expected KEY=VALUE", l));
    out[l.substr(0, eq)] = l.substr(eq + 1);
  }
  return out;
}

nlohmann::json compare_settings(const SuiteCompare& c) {
  nlohmann::json tol = nlohmann::json::array();
  for (const auto& t : c.tolerances) tol.push_back({{"pattern", t.pattern}, {"floor", t.floor}});
  return {{"floor", c.floor}, {"noise_k", c.noise_k}, {"tolerance", tol}};
}

int execute(const RunOptions& o) {
  const auto file_path = suites_path(o);
  const SuitesFile file = load_suites_file(file_path);
  const SuiteConfig& suite = find_suite(file, o.suite, file_path.string());
  const Trigger trigger = trigger_from_string(o.trigger);
  const auto labels = parse_labels(o.labels);
  const BackendChoice backends = resolve_backends(o, suite);
  for (const auto& note : backends.unavailable) std::cerr << "perfgate: " << note << "\n";
  microbench::PlanOptions plan;
  plan.backends = backends.backends;
  plan.timing = o.measure.timing;
  if (!o.filter.empty()) {
    try {
      plan.filter.emplace(o.filter, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw InputError(
          fmt::format("--filter '{}': not a regular expression: {}", o.filter, e.what()));
    }
  }
  const auto cases = microbench::plan_suite(suite, plan);
  if (o.list) {
    for (const auto& c : cases) std::cout << c.key().name() << "\n";
    return exit_code::pass;
  }
  if (cases.empty())
    throw InputError(fmt::format("suite '{}': no case matches the selection", suite.name));
  MeasuringProgram program{microbench_runner(), {}};
  if (o.measure.wrap) program.wrap = parse_wrap(*o.measure.wrap);

  Run run;
  run.uuid = new_uuid();
  run.suite = suite.name;
  run.trigger = trigger;
  run.code = read_code_under_test(std::filesystem::current_path().string());
  if (!o.branch.empty()) run.code.branch = o.branch;
  if (!o.commit.empty()) run.code.commit = o.commit;
  run.labels = labels;
  run.fingerprint = collect_fingerprint(this_build());
  if (!program.wrap.empty()) {
    // A profiler or a pinning changes the numbers: such a run is compared only with its like.
    run.fingerprint.comparable["run.wrap"] = fmt::format("{}", fmt::join(program.wrap, " "));
    run.metadata["wrap"] = program.wrap;
  }
  // Preflight: what would make these numbers untrustworthy is recorded with them.
  if (!o.no_store) preflight::require_local_store(o.db);
  preflight::DoctorOptions doctor;
  if (!o.no_store) doctor.store = o.db;
  const auto findings = preflight::run_doctor(doctor);
  const auto worst = preflight::worst_level(findings);
  if (worst == preflight::Level::error || (o.strict && worst == preflight::Level::warning))
    throw ToolError(fmt::format("preflight found {} condition(s){}; see `perfgate doctor`",
                                to_string(worst), o.strict ? " (--strict)" : ""));
  run.metadata["doctor"] = preflight::to_json(findings);
  run.metadata["suites_file"] = file_path.string();
  run.metadata["compare"] = compare_settings(suite.compare);
  run.metadata["backends"] = plan.backends;
  if (!backends.unavailable.empty()) run.metadata["unavailable_backends"] = backends.unavailable;
  run.started_at = utc_now_iso8601();
  run.status = RunStatus::partial;  // until the last case is in
  const std::filesystem::path output =
      o.output.empty() ? std::filesystem::path("perfgate-results") / (run.uuid + ".json")
                       : std::filesystem::path(o.output);
  if (output.has_parent_path()) std::filesystem::create_directories(output.parent_path());
  write_document_file(output, run);

  const double timeout_s = o.case_timeout_s > 0 ? o.case_timeout_s : suite.case_timeout_s;
  const auto limit = std::chrono::milliseconds(static_cast<long>(timeout_s * 1000));
  const auto scratch = std::filesystem::path(output.string() + ".case.json");
  // The ceilings this run's results are fractions of, before its first case (DESIGN.md §5).
  const RunCeilings ceilings =
      o.measure.no_ceilings ? RunCeilings{} : measure_ceilings(program, cases, limit, scratch);
  if (!ceilings.record.empty()) {
    run.metadata["ceilings"] = ceilings.record;
    write_document_file(output, run);
  }
  bool all_ok = true, interrupted = false;
  ProgressLine progress(stderr, cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    progress.start_case(i, cases[i].key().name());
    run.results.push_back(run_case_isolated(program, cases[i], limit, scratch));
    add_fractions(run.results.back(), cases[i].backend, ceilings);
    const auto status = run.results.back().status;
    all_ok = all_ok && (status == ResultStatus::ok || status == ResultStatus::skipped);
    interrupted = interrupted || status == ResultStatus::crashed || status == ResultStatus::timeout;
    write_document_file(output, run);  // a crash of this process loses only the running case
  }
  progress.finish();
  run.ended_at = utc_now_iso8601();
  run.status = interrupted ? RunStatus::partial : RunStatus::complete;
  write_document_file(output, run);

  std::cout << results_table(run) << "\n";
  std::cout << fmt::format("run {} ({}, {} cases, {}): {}\n", run.uuid, suite.name,
                           run.results.size(), to_string(run.status), output.string());
  if (!o.no_store) {
    const auto outcome = baselines::Store::open(o.db, baselines::OpenMode::read_write)->ingest(run);
    std::cout << fmt::format("stored in {} ({} series, {} samples)\n", o.db, outcome.series,
                             outcome.samples);
  }
  return all_ok ? exit_code::pass : exit_code::regression;
}

}  // namespace

void add_run_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Run a benchmark suite (each case in its own process)");
  cmd->add_option("--suite", opts->suite, "suite name in the suites file (default smoke)");
  cmd->add_option("--filter", opts->filter,
                  "only cases whose name matches this regular expression");
  add_measure_options(*cmd, opts->measure);
  add_db_option(*cmd, opts->db);
  cmd->add_flag("--no-store", opts->no_store, "do not ingest the run into the store");
  cmd->add_flag("--strict", opts->strict, "refuse to measure when `perfgate doctor` warns");
  cmd->add_option("--output", opts->output,
                  "result document path (default perfgate-results/<uuid>.json)");
  cmd->add_option("--trigger", opts->trigger, "nightly, premerge or adhoc")
      ->check(CLI::IsMember({"nightly", "premerge", "adhoc"}));
  cmd->add_option("--label", opts->labels, "KEY=VALUE label of the run (repeatable)");
  cmd->add_option("--branch", opts->branch, "branch under test (default: from the git checkout)");
  cmd->add_option("--commit", opts->commit, "commit under test (default: from the git checkout)");
  cmd->add_option(
      "--suites-file", opts->suites_file,
      "suites file (default $PERFGATE_SUITES_FILE, ./suites/suites.toml, then the built-in one)");
  cmd->add_option("--case-timeout", opts->case_timeout_s,
                  "seconds a case may run before it is killed")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--list", opts->list, "print the cases and exit");
  cmd->callback([&action, opts] { action = [opts] { return execute(*opts); }; });
}

}  // namespace perfgate::cli
