// `perfgate report`: builds reports from the store: a candidate run against a baseline, with
// history charts (change points, baseline band), scaling curves and the step decomposition.
// Exits like compare: 0 pass, 1 regression, 3 not comparable (see --not-comparable-exit).
#include <iostream>

#include <fmt/format.h>

#include "command.hpp"
#include "compare_baseline.hpp"
#include "perfgate/baselines/store.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "report_comparison.hpp"
#include "report_material.hpp"
#include "report_output.hpp"

namespace perfgate::cli {

namespace {

struct ReportOptions {
  std::string db;
  std::string candidate = "latest", baseline;
  std::string formats = "terminal";
  std::string output_dir = ".";
  std::string title, report_url;
  std::size_t history_runs = 60, max_charts = 40;
  int not_comparable_exit = exit_code::not_comparable;
  ComparisonOptions compare;
};

std::string only_run(baselines::Store& store, const std::string& selector) {
  const auto uuids = store.resolve(selector);
  if (uuids.empty()) throw InputError("--candidate: '" + selector + "' names no run");
  return uuids.front();  // newest first
}

int run_report(const ReportOptions& o) {
  const auto formats = report::formats_from_list(o.formats);
  auto store = baselines::Store::open(o.db, baselines::OpenMode::read_only);
  const Run candidate = store->load_run(only_run(*store, o.candidate));
  std::vector<Run> named;
  for (const auto& uuid : store->resolve(o.baseline)) named.push_back(store->load_run(uuid));
  const BaselineSide side =
      baseline_side(store.get(), o.baseline, std::move(named), candidate, "report");
  const std::vector<Run>& baseline = side.runs;

  report::ReportInput input;
  input.title = o.title.empty() ? fmt::format("perfgate report: {} ({})", candidate.suite,
                                              candidate.code.commit.empty() ? candidate.uuid
                                                                            : candidate.code.commit)
                                : o.title;
  input.comparison = compare_with_store(store.get(), baseline, candidate, o.compare);
  record_pools(input.comparison, side.pools);
  input.full_report_hint = o.report_url;
  input.histories = histories(*store, input.comparison, candidate, o.max_charts, o.history_runs);
  input.scaling = scaling_curves(candidate, baseline);
  input.steps = step_decomposition(candidate);
  emit_reports(input, formats, o.output_dir);
  return gate_exit_code(input.comparison, o.not_comparable_exit);
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand(
      "report", "Write reports (terminal, markdown, junit, json, html) from the store");
  add_db_option(*cmd, opts->db);
  cmd->add_option("--candidate", opts->candidate, "Candidate run selector (default latest)");
  cmd->add_option("--baseline", opts->baseline,
                  "Baseline run selector, e.g. baseline:nightly or latest~1")
      ->required();
  cmd->add_option("--format", opts->formats,
                  "Comma-separated: terminal, markdown, junit, json, html (default terminal)");
  cmd->add_option("--output-dir", opts->output_dir, "Folder for the report files (default .)");
  cmd->add_option("--title", opts->title, "Report title");
  cmd->add_option("--report-url", opts->report_url,
                  "Where the full report will be (linked from the Markdown)");
  cmd->add_option("--history", opts->history_runs, "Runs of history per chart (default 60)");
  cmd->add_option("--max-charts", opts->max_charts, "Most history charts (default 40)");
  cmd->add_option("--not-comparable-exit", opts->not_comparable_exit,
                  "Exit code for not comparable / insufficient data: 0, 1 or 3 (default 3)")
      ->check(CLI::IsMember({0, 1, 3}));
  add_comparison_options(*cmd, opts->compare);
  cmd->callback([&action, opts] { action = [opts] { return run_report(*opts); }; });
}

}  // namespace perfgate::cli
