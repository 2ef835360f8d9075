// `perfgate compare [BASELINE CANDIDATE]`: verdicts per series between two runs (DESIGN.md §4).
// Either side is a run selector on the store or a result / Google Benchmark JSON file, so
// `perfgate compare old.json new.json` works without a store. A stored candidate's verdicts are
// saved in the store (unless --no-save or the store is read-only); a pooled baseline policy is
// cut per series at its last change point.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "compare_baseline.hpp"
#include "compare_persist.hpp"
#include "perfgate/core/document.hpp"
#include "perfgate/core/error.hpp"
#include "perfgate/core/exit_codes.hpp"
#include "perfgate/report/report.hpp"
#include "regress_sources.hpp"
#include "report_comparison.hpp"
#include "report_output.hpp"

namespace perfgate::cli {

namespace {

struct CompareOptions {
  std::vector<std::string> positional;
  std::string baseline, candidate, db;
  std::string formats = "terminal";
  std::string output_dir = ".";
  std::string output_file;
  int on_not_comparable = exit_code::not_comparable;
  bool no_save = false;
  ComparisonOptions compare;
};

// -o FILE: exactly one file format, written whole or not at all.
void write_single_report(const std::string& path, const std::vector<report::Format>& formats,
                         const report::ReportInput& input) {
  if (formats.size() != 1 || formats[0] == report::Format::terminal)
    throw InputError("-o: give exactly one of --format markdown|junit|json|html");
  write_text_file_atomic(path, report::render(formats[0], input));
}

// The read-only connections close before verdicts are saved, so the writer is the last one
// and checkpoints its write-ahead log away.
report::ReportInput compare_sources(const CompareOptions& o) {
  RunSources sources(o.db);
  const Run candidate = sources.load("candidate", o.candidate, false).front();
  const BaselineSide baseline = load_baseline(sources, o.baseline, candidate);
  report::ReportInput input;
  input.title = "perfgate compare: " + o.baseline + " → " + o.candidate;
  input.comparison = compare_with_store(sources.store(), baseline.runs, candidate, o.compare);
  record_pools(input.comparison, baseline.pools);
  return input;
}

int run_compare(CompareOptions o) {
  if (!o.positional.empty()) {
    if (o.positional.size() != 2 || !o.baseline.empty() || !o.candidate.empty())
      throw InputError("compare: give BASELINE CANDIDATE, or --baseline/--candidate, not both");
    o.baseline = o.positional[0];
    o.candidate = o.positional[1];
  }
  if (o.candidate.empty()) o.candidate = "latest";
  if (o.baseline.empty()) o.baseline = "latest~1";
  const auto formats = report::formats_from_list(o.formats);

  const report::ReportInput input = compare_sources(o);
  if (!o.output_file.empty()) {
    write_single_report(o.output_file, formats, input);
    report::write_terminal(std::cout, input, report::terminal_options_for(false));
  } else {
    emit_reports(input, formats, o.output_dir);
  }
  if (!o.no_save && !names_a_file(o.candidate))
    if (const std::string why = save_verdicts_if_writable(o.db, input.comparison); !why.empty())
      std::cerr << "perfgate compare: " << why << "\n";
  return gate_exit_code(input.comparison, o.on_not_comparable);
}

}  // namespace

void add_compare_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand(
      "compare", "Compare two runs: per-series verdicts with intervals and p-values");
  cmd->add_option(
         "runs", opts->positional,
         "BASELINE CANDIDATE: run selectors (uuid or prefix, latest, latest~N, baseline:NAME, "
         "branch:NAME) or result / Google Benchmark JSON files")
      ->expected(0, 2);
  cmd->add_option("--baseline", opts->baseline, "Baseline selector or file (default latest~1)");
  cmd->add_option("--candidate", opts->candidate, "Candidate selector or file (default latest)");
  add_db_option(*cmd, opts->db);
  add_comparison_options(*cmd, opts->compare);
  cmd->add_option("--format", opts->formats,
                  "Comma-separated: terminal, markdown, junit, json, html");
  cmd->add_option("--output-dir", opts->output_dir, "Folder for report files (default .)");
  cmd->add_option("-o,--output", opts->output_file, "Write the one --format given to this file");
  cmd->add_flag(
      "--no-save", opts->no_save,
      "Do not keep the verdicts in the store (they are kept when the candidate is a stored run)");
  cmd->add_option("--on-not-comparable", opts->on_not_comparable,
                  "Exit code when not comparable / insufficient data: 0, 1 or 3 (default 3)")
      ->check(CLI::IsMember({0, 1, 3}));
  cmd->callback([&action, opts] { action = [opts] { return run_compare(*opts); }; });
}

}  // namespace perfgate::cli
